import Synchronization

extension Container: Resolver {
    /// Resolves the service registered for `type` under `name`, here or in the nearest ancestor.
    ///
    /// ```swift
    /// let logger = try checkout.resolve(Logger.self)
    /// let db = try checkout.resolve(Database.self, name: "primary")
    /// let inferred: Logger = try checkout.resolve()
    /// ```
    ///
    /// A built singleton is returned without a lock or an allocation. Asking for `Optional<T>` gives `nil`
    /// only when nothing is registered for `T`.
    ///
    /// - Throws: `ResolutionError`, whose description names the path, the containers searched and close
    ///   matches.
    @inlinable
    public func resolve<Service>(_ type: Service.Type = Service.self, name: String? = nil) throws -> Service {
        // One read section for the whole walk: the registration found is used unretained until the resolve
        // returns (a transient's factory runs inside it), so its table must not be freed meanwhile.
        let section = TableReclamation.enter()
        defer { TableReclamation.leave(section) }
        let key = RegistrationKey(type, name: name)
        let hash = key.tableHash
        switch lookupPublished(key, hash: hash) {
        case .table(let found, let owner):
            // A built singleton first: its box, when published, is all the shortcut needs. Read as a box, not
            // as an optional `Service`: generic code (a factory's resolve through its `Resolver`) would ask the
            // runtime for that optional's metadata on every resolve.
            if let box = found.with({ $0.builtSingleton.load() }) { return InstanceBox.value(in: box) }
            if found.with({ $0.shortcut }) == .transient {
                return try found.with { try buildTransient($0, as: Service.self) }
            }
            // Passed borrowed: `found.object` would retain the registration and the container.
            return try found.with { try resolve($0, from: owner, as: Service.self) }
        case .pending(.value(let box), _) where !registry.needsSlowPath:
            // A value kept without its registration (a request's own, `PendingValue`), unless this container
            // is closed or observed meanwhile: the slow path looks again then.
            return unsafeDowncast(box.object, to: InstanceBox<Service>.self).value
        case .pending(.registration(let registration), let owner):
            // A value (a request's own) is published already: read as the table's are.
            return try owner.with { try resolveFound(registration, in: $0, as: Service.self) }
        case .pending(.value, _), .elsewhere:
            break
        }
        // One call for every way off the fast path: the key is then written to memory (where the call takes
        // it) only on the way out, not ahead of the walk.
        return try resolveLookingEverywhere(key, as: Service.self)
    }

    /// Resolves a registration the fast path found in `owner`'s table, both borrowed. Never inlined: where the
    /// two borrows nest in one function the optimiser retains both.
    @usableFromInline @inline(never)
    func resolve<Service>(_ registration: Registration, from owner: Unsafe.Unowned<Container>, as type: Service.Type)
        throws -> Service
    {
        try owner.with { try resolve(registration, from: $0, as: type) }
    }

    /// The pending registration for `type` under `name` (whose `tableHash` is `hash`) in this container, or the
    /// box of a value kept without one, for the fast path, which found the key missing from the table it
    /// loaded and that table announcing pending registrations; `.unknown` when the lookup cannot tell (a test
    /// container, whose base chain counts as its own registrations).
    ///
    /// Takes the key's parts, which travel in registers, rather than the key, which the caller would have to
    /// store in memory: the compiler then writes it on every resolve, ahead of the branch that needs it.
    @usableFromInline
    func pendingStep(for type: ObjectIdentifier, name: String?, hash: UInt) -> PendingStep {
        if testing != nil { return .unknown }
        return registry.pendingEntry(for: RegistrationKey(type: type, name: name), hash: hash).map(PendingStep.found)
            ?? .notHere
    }

    /// What `pendingStep(for:name:hash:)` found.
    @usableFromInline
    enum PendingStep {
        /// The key's pending registration, or the box of a value kept without one (`PendingValue`).
        case found(Registry.PendingEntry)
        /// The lookup cannot tell (a test container): the slow path decides.
        case unknown
        /// The key is not pending here: the walk goes on.
        case notHere
    }

    /// Walks the published tables of this container and its ancestors for `key` (whose `tableHash` is `hash`),
    /// for the fast paths of `resolve` and `resolveAsync`. Call it inside a read section
    /// (`TableReclamation.enter()`): what it returns is unretained and valid only until the section is left.
    ///
    /// Containers and registrations are walked unowned: `self` keeps its ancestors alive, and each table (inside
    /// the read section) keeps its registrations alive, so the walk does no reference counting of its own.
    @inlinable @inline(__always)
    func lookupPublished(_ key: RegistrationKey, hash: UInt) -> PublishedLookup {
        var current = Unsafe.Unowned(self)
        var (table, hasPending) = registry.tableInSection()
        // Closed or observed (a `ResolutionBehavior`, a tap): the asking container's table says so in one flag,
        // read once before the walk, so that the walk tests nothing but the tables. The slow path then looks the
        // key up again, and refuses or reports.
        if table.with({ $0.needsSlowPath }) { return .elsewhere }
        while true {
            if let found = table.with({ $0.find(key, hash: hash) }) { return .table(found, owner: current) }
            if hasPending {
                // Registrations not yet folded into the table (a request's container holds its own few values
                // there): look among them, and walk on when the key is not one of them.
                switch current.with({ $0.pendingStep(for: key.type, name: key.name, hash: hash) }) {
                case .found(let entry): return .pending(entry, owner: current)
                case .unknown: return .elsewhere
                case .notHere: break
                }
            }
            guard let parent = current.with({ $0.parentReference }) else { return .elsewhere }
            current = parent
            (table, hasPending) = parent.with { $0.registry.tableInSection() }
        }
    }

    /// Where `lookupPublished(_:hash:)` found a key.
    @usableFromInline
    enum PublishedLookup {
        /// In the published table of `owner`; both unretained.
        case table(Unsafe.Unowned<Registration>, owner: Unsafe.Unowned<Container>)
        /// Among the pending registrations of `owner` (unretained), or as a value it keeps without one.
        case pending(Registry.PendingEntry, owner: Unsafe.Unowned<Container>)
        /// Nowhere the walk can tell: not registered, or the asking container is closed or observed, or a test
        /// container. The slow path decides.
        case elsewhere
    }

    /// Runs a synchronous transient factory on the thread's resolution path.
    @inlinable
    func buildTransient<Service>(_ registration: Registration, as type: Service.Type) throws -> Service {
        // The registration keeps its body alive.
        let factory = Unsafe.Unowned(unsafeDowncast(registration.body, to: FactoryBox<Service>.self))
        let stack = try enterBuild(registration, requested: type)
        defer { stack.with { $0.leave() } }
        do {
            return try factory.with { try $0.make(self) }
        } catch {
            throw stack.with { $0.failure(error) }
        }
    }

    /// Resolves the service and casts it to a concrete type.
    ///
    /// ```swift
    /// let mock = try app.resolve(Repository.self, as: MockRepository.self)
    /// ```
    ///
    /// - Throws: `ResolutionError` (`typeMismatch` when the instance is not a `Concrete`).
    public func resolve<Service, Concrete>(
        _ type: Service.Type,
        name: String? = nil,
        as concrete: Concrete.Type
    ) throws -> Concrete {
        let value = try resolve(type, name: name)
        guard let cast = value as? Concrete else { throw notA(concrete, value, resolvedAs: type, name: name) }
        return cast
    }

    /// The `typeMismatch` of `resolve(_:name:as:)`: `value`, resolved as `type`, is not a `concrete`. It names the
    /// registration that built it, and the way out is installing a `concrete` there (a test's mock) or asking for
    /// what it is.
    private func notA(_ concrete: Any.Type, _ value: Any, resolvedAs type: Any.Type, name: String?) -> ResolutionError {
        let key = ServiceName.key(type, name: name)
        let (instance, wanted) = (ServiceName.readable(Swift.type(of: value)), ServiceName.readable(concrete))
        let found = lookup(RegistrationKey(type: ObjectIdentifier(type), name: name))
        let step = found.map { PathElement($0.0, requested: type, in: self) }
            ?? PathElement(missing: type, name: name, in: self)
        let built = found.map { registration, _ in
            registration.isValue
                ? "The value registered at \(registration.location) is a \(instance)"
                : "The registration at \(registration.location) built a \(instance)"
        } ?? "The instance is a \(instance)"
        return ResolutionError(
            code: .typeMismatch,
            requestedType: type,
            name: name,
            path: ResolutionStack.current.path(then: step),
            detail: "\(built), not a \(wanted). To get a \(wanted), register one for it (in a test: "
                + ".override(\(key)) { _ in … }); otherwise ask for \(instance)."
        )
    }

    /// Resolves the service, or returns `nil` when nothing is registered for it here or in an ancestor.
    ///
    /// ```swift
    /// let cache: Cache? = try app.resolveIfRegistered(Cache.self)
    /// ```
    ///
    /// - Throws: `ResolutionError` when the service is registered but cannot be built.
    public func resolveIfRegistered<Service>(
        _ type: Service.Type = Service.self,
        name: String? = nil
    ) throws -> Service? {
        try resolveIfRegistered(type, name: name, mayBeRelationship: true)
    }

    /// `resolveIfRegistered(_:name:)`; with `mayBeRelationship` `false` from a caller that knows `Service` is
    /// no relationship type (an optional's path, which asked already), one runtime conformance lookup fewer
    /// when nothing is registered.
    @inline(__always)
    func resolveIfRegistered<Service>(_ type: Service.Type, name: String?, mayBeRelationship: Bool) throws
        -> Service?
    {
        if isClosed { throw closedError(type, name: name) }
        guard let (registration, owner) = lookup(RegistrationKey(type, name: name)) else {
            // `Lazy<T>`, `Provider<T>`, `All<T>` need no registration of their own: present when `T` is.
            if mayBeRelationship, let relationship = type as? any RelationshipService.Type,
               relationship.isAvailable(in: self, name: name)
            {
                return try resolve(type, name: name)
            }
            if isClosedOnItsPath { throw closedError(type, name: name) }
            return nil
        }
        return try resolve(registration, from: owner, as: type)
    }

    /// Resolves every registration of `type`, under every name: this container's first (in registration
    /// order), then each ancestor's; a key shadowed by a nearer container appears once.
    ///
    /// ```swift
    /// let plugins: [any Plugin] = try app.resolveAll((any Plugin).self)
    /// ```
    ///
    /// A registration with an `async` factory (`registerAsync`) among them can only be built by
    /// ``resolveAllAsync(_:)``.
    ///
    /// - Throws: `ResolutionError` when one of them cannot be built.
    public func resolveAll<Service>(_ type: Service.Type) throws -> [Service] {
        try resolveAll(type, for: .resolveAll)
    }

    /// `resolveAll(_:)`, for `asker`: the call, or an `All<T>` being injected (whose way out differs when an
    /// `async` factory is among them).
    func resolveAll<Service>(_ type: Service.Type, for asker: AllAsker) throws -> [Service] {
        if isClosed { throw closedError(type, name: nil) }
        var services: [Service] = []
        for (registration, owner) in registrations(of: type) {
            if buildsOnlyAsynchronously(registration) {
                // An alias's error names its target's registerAsync, not the .implements.
                let target = owner.builder(of: registration)?.registration ?? registration
                throw owner.asyncResolutionRequired(target, requested: type, inAll: asker)
            }
            do {
                services.append(try resolve(registration, from: owner, as: type))
            } catch let error as ResolutionError where error.code == .circularDependency {
                // The collected service's step follows the collecting build's, the last of the active path.
                throw error.collected(at: ResolutionStack.current.path.count)
            }
        }
        // An ancestor closing meanwhile took its registrations away: refused, not a shorter list.
        if isClosedOnItsPath { throw closedError(type, name: nil) }
        return services
    }

    /// Resolves every registration of `type`, under every name, as ``resolveAll(_:)`` does, running the
    /// `async` factories among them (`registerAsync`) too.
    ///
    /// ```swift
    /// let stores: [any Store] = try await app.resolveAllAsync((any Store).self)
    /// ```
    ///
    /// - Throws: `ResolutionError` when one of them cannot be built.
    public func resolveAllAsync<Service>(_ type: Service.Type) async throws -> [Service] {
        if isClosed { throw closedError(type, name: nil) }
        var services: [Service] = []
        // Each one as `resolveAsync` finds it: the nearest registration of its key, the one listed here.
        for (registration, _) in registrations(of: type) {
            services.append(try await resolveAsync(type, name: registration.key.name))
        }
        if isClosedOnItsPath { throw closedError(type, name: nil) }
        return services
    }

    /// What asks for every registration of a type at once.
    enum AllAsker {
        /// `resolveAll(_:)`.
        case resolveAll
        /// An `All<T>` being injected.
        case collection(of: Any.Type)
    }

    /// The registrations `resolveAll(_:)` resolves, each with the container that owns what it builds: this
    /// container's in registration order, then each ancestor's (and a test container's base chain); a key shadowed
    /// by a nearer container once.
    private func registrations<Service>(of type: Service.Type) -> [(Registration, Container)] {
        let typeID = ObjectIdentifier(type)
        var seen = Set<RegistrationKey>()
        var found: [(Registration, Container)] = []
        for (container, owner) in registrationSources {
            for registration in container.registry.all
            where registration.key.type == typeID && registration.key.arguments == nil
                && registration.key.keyPath == 0 && seen.insert(registration.key).inserted
            {
                found.append((registration, owner))
            }
        }
        return found
    }

    /// Whether `type` under `name` is registered here or in an ancestor.
    ///
    /// ```swift
    /// if app.isRegistered(Logger.self, name: nil) { … }
    /// ```
    public func isRegistered<Service>(_ type: Service.Type, name: String? = nil) -> Bool {
        lookup(RegistrationKey(type, name: name)) != nil
    }

    /// Resolves the service, trapping with the full diagnostic if it cannot be resolved.
    ///
    /// For start-up code where a missing service is a programming error.
    ///
    /// ```swift
    /// let logger = app.resolveRequired(Logger.self)
    /// ```
    public func resolveRequired<Service>(
        _ type: Service.Type = Service.self,
        name: String? = nil,
        fileID: String = #fileID,
        line: Int = #line
    ) -> Service {
        do {
            return try resolve(type, name: name)
        } catch {
            resolveRequiredFailed(error, at: SourceLocation(fileID: fileID, line: line))
        }
    }

    /// Resolves the service as a concrete type, trapping with the full diagnostic if that fails.
    ///
    /// ```swift
    /// let mock = app.resolveRequired(Repository.self, as: MockRepository.self)
    /// ```
    public func resolveRequired<Service, Concrete>(
        _ type: Service.Type,
        name: String? = nil,
        as concrete: Concrete.Type,
        fileID: String = #fileID,
        line: Int = #line
    ) -> Concrete {
        do {
            return try resolve(type, name: name, as: concrete)
        } catch {
            resolveRequiredFailed(error, at: SourceLocation(fileID: fileID, line: line))
        }
    }
}

/// The one place DIToolkit traps: the `resolveRequired` family and the property wrappers (`what`), with the
/// full diagnostic.
package func resolveRequiredFailed(
    _ error: any Error, at location: SourceLocation, what: String = "resolveRequired"
) -> Never {
    fatalError("\(what) at \(location) failed:\n\(error)")
}
