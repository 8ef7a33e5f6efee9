/// A type the container makes for any registered target, with no registration of its own: `Lazy<T>`,
/// `Provider<T>`, `Provider<T, Argument>`, `All<T>`.
///
/// `resolve(_:name:)` asks for one only when nothing is registered under the relationship type itself, so
/// the resolve fast path does not change, and an explicit registration of, say, `Lazy<Clock>` still wins.
protocol RelationshipService: ImplicitService {
    /// The edge `autoregister` records for a parameter of this type.
    static var dependency: Dependency { get }

    /// Makes the relationship for a request to `container` under `name`.
    ///
    /// - Throws: `notRegistered` when the target is not registered (a relationship fails when it is
    ///   injected, not when it is first used), or whatever resolving the target eagerly throws.
    static func make(from container: Container, name: String?) throws -> Self

    /// Whether `make(from:name:)` finds its target, for `Optional<Lazy<T>>` and the like.
    static func isAvailable(in container: Container, name: String?) -> Bool
}

extension Container {
    /// The registration a relationship to `type` under `name` (taking `arguments`, if any) resolves, or, for
    /// a target that needs none (an `Optional`, another relationship), a stand-in that only names it.
    ///
    /// - Throws: `notRegistered` when nothing is registered for the target; `argumentMismatch`, naming
    ///   `relationship` and the relationship that would fit, when the target is registered with other runtime
    ///   arguments (or none).
    func relationshipTarget<Target>(
        _ type: Target.Type,
        name: String?,
        arguments: Any.Type? = nil,
        for relationship: Any.Type
    ) throws -> Registration {
        let key = RegistrationKey(
            type: ObjectIdentifier(type), name: name, arguments: arguments.map(ObjectIdentifier.init)
        )
        if let (registration, _) = lookup(key) { return registration }
        if isClosed { throw closedError(type, name: name) }
        if arguments == nil {
            if let relationship = type as? any RelationshipService.Type {
                guard relationship.isAvailable(in: self, name: name) else {
                    // The inner relationship's own error names what is missing (`N2`, not `Lazy<N2>`, which
                    // nobody registers).
                    _ = try relationship.make(from: self, name: name)
                    throw missing(key, type)
                }
                return Self.standIn(for: type, key: key)
            }
            if type is any ImplicitService.Type { return Self.standIn(for: type, key: key) }
        }
        throw argumentMismatch(key, type, arguments: arguments, asked: relationship)
    }

    /// A registration that is never stored in a table: it only names a relationship's target that has no
    /// registration of its own in cycle errors.
    static func standIn<Target>(for type: Target.Type, key: RegistrationKey) -> Registration {
        Registration(
            key: key,
            kind: .factory,
            body: AliasBox<Target>(),
            serviceType: type,
            scope: .transient,
            overridable: true,
            location: SourceLocation(fileID: "DICore/Relationships", line: 0)
        )
    }
}

extension Container {
    /// Whether `registration`, or the registration it is an alias of, has an `async` factory, which only
    /// `resolveAsync` can build.
    func buildsOnlyAsynchronously(_ registration: Registration) -> Bool {
        if case .asyncFactory = registration.kind { return true }
        guard let key = registration.aliasTarget, let (target, _) = lookup(key) else { return false }
        if case .asyncFactory = target.kind { return true }
        return false
    }

    /// The error of a synchronous relationship (`Provider<T>`, `Lazy<T>`) to `target`, which only
    /// `resolveAsync` can build: thrown when it is injected, since no use of it could work.
    func asyncOnly<Service>(
        _ target: Registration, for relationship: String, _ type: Service.Type, name: String?,
        origin: RelationshipOrigin
    ) -> ResolutionError {
        // An alias's error names its target's registerAsync, not the .implements.
        let builder = builder(of: target)?.registration ?? target
        return ResolutionError(
            code: .asyncResolutionRequired,
            requestedType: type,
            name: name,
            path: ResolutionStack.current.path + [origin.step, PathElement(target, requested: type, in: self)],
            detail: "It is registered with registerAsync at \(builder.location), so a \(relationship) cannot build it "
                + "synchronously; inject \(ServiceName.asyncProvider(of: type)) instead and call "
                + "`try await provider()`."
        )
    }
}

extension Dependency {
    /// The edge for an `autoregister` parameter of type `parameter` (or a factory's resolve of that type): a
    /// relationship's own kind, or `.direct`.
    package static func parameter(_ parameter: Any.Type) -> Dependency {
        (parameter as? any RelationshipService.Type)?.dependency.throughRelationships ?? Dependency(parameter)
    }

    /// A relationship to another relationship (`Lazy<All<T>>`, `Provider<Lazy<T>>`), which needs no registration
    /// of its own, as a dependency on the inner one's target: of the outer kind, which says when the owner
    /// resolves anything, and collecting when the inner is an `All`. An `All` of a relationship type collects
    /// the registrations of that type, which the container does not make: it is left as it is.
    private var throughRelationships: Dependency {
        guard kind != .collection, let inner = (type as? any RelationshipService.Type)?.dependency.throughRelationships
        else { return self }
        var dependency = Dependency(inner.type, name: inner.name, kind: kind, arguments: inner.arguments)
        dependency.collects = inner.collects
        return dependency
    }
}
