import Synchronization

extension Container {
    /// Registers an `async` factory, resolved with `resolveAsync`.
    ///
    /// ```swift
    /// try app.registerAsync(Store.self, scope: .singleton) { r in await Store.open() }
    /// let store = try await app.resolveAsync(Store.self)
    /// ```
    ///
    /// The factory may resolve other async services (`try await r.resolveAsync(…)`), and may be isolated to
    /// a global actor (`{ @MainActor r in … }`). A synchronous `resolve` of it throws
    /// `asyncResolutionRequired`. A singleton is built once even when many tasks ask at once; the others
    /// suspend until it is ready.
    ///
    /// - Throws: `RegistrationError` (`alreadyRegistered`, `invalidScope`, `containerClosed`).
    @discardableResult
    public func registerAsync<Service: Sendable>(
        _ type: Service.Type,
        name: String? = nil,
        scope: Scope = .transient,
        overridable: Bool = true,
        fileID: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable (any Resolver) async throws -> Service
    ) throws(RegistrationError) -> RegistrationHandle<Service> {
        let registration = Registration(
            key: RegistrationKey(type: ObjectIdentifier(type), name: name),
            kind: .asyncFactory,
            body: AsyncFactoryBox(factory),
            serviceType: type,
            scope: scope,
            overridable: overridable,
            location: SourceLocation(fileID: fileID, line: line)
        )
        try add(registration)
        return RegistrationHandle(container: self, registration: registration)
    }

    /// Resolves the service, running `async` factories (and synchronous ones).
    ///
    /// ```swift
    /// let store = try await app.resolveAsync(Store.self)
    /// ```
    ///
    /// - Throws: `ResolutionError`.
    public func resolveAsync<Service>(_ type: Service.Type = Service.self, name: String? = nil) async throws
        -> Service
    {
        let key = RegistrationKey(type, name: name)
        if isClosed { throw closedError(type, name: name) }
        guard let (registration, owner) = lookup(key) else {
            if let optional = type as? any OptionalService.Type {
                return try optional.resolveWrapped(from: self, name: name) as! Service
            }
            throw missing(key, type)
        }
        guard registration.isAsync else { return try resolve(registration, from: owner, as: type) }
        let target = registration.target
        let box = try await instanceBoxAsync(of: target, from: owner, requested: type)
        let value: Service
        if case .alias = registration.kind {
            let instance = target.erased.unbox(box)
            guard let cast = unsafeDowncast(registration.body, to: AliasBox<Service>.self).cast(instance) else {
                throw aliasMismatch(registration, value: instance)
            }
            value = cast
        } else {
            value = unsafeDowncast(box, to: InstanceBox<Service>.self).value
        }
        if registry.needsSlowPath { reportResolved(registration, heldBy: owner, instance: value) }
        return value
    }

    /// The boxed instance of a registration for an `async` resolve, placed by its lifetime (package: diagnostics
    /// build every service of a copied tree through it).
    package func instanceBoxAsync(of registration: Registration, from owner: Container, requested: Any.Type)
        async throws -> AnyObject
    {
        let resolution = ResolutionScope(storage: .task(AsyncResolution.current))
        switch try placement(of: registration, from: owner, resolution: resolution) {
        case .build(let dependencies):
            return try await dependencies.buildAsync(registration, dependencies: dependencies, requested: requested)
        case .slot(let slot, let holder, let dependencies):
            let (box, built) = try await slot.instance(of: registration, resolution: resolution) {
                try await dependencies.buildAsync(registration, dependencies: dependencies, requested: requested)
            }
            if built { holder.hold(slot, of: registration) }
            return box
        case .provided(let provider, let dependencies):
            return try await provider.instance(of: registration, resolution: resolution) {
                try await dependencies.buildAsync(registration, dependencies: dependencies, requested: requested)
            }
        }
    }

    /// Runs the async factory of `registration` in a new node of the task's async path.
    private func buildAsync(_ registration: Registration, dependencies: Container, requested: Any.Type)
        async throws -> AnyObject
    {
        let parent = AsyncResolution.current
        let element = PathElement(registration, requested: requested, in: dependencies)
        if let parent, parent.contains(registration, in: dependencies) {
            throw ResolutionError.cycle(path: parent.path + [element])
        }
        if let parent, parent.path.count >= ResolutionStack.maximumDepth {
            throw ResolutionError.tooDeep(path: parent.path + [element], limit: ResolutionStack.maximumDepth)
        }
        let body = registration.erased
        guard body.buildsAsynchronously else {
            return try dependencies.build(registration, dependencies: dependencies, requested: requested)
        }
        let node = AsyncResolution(registration, in: dependencies, requested: requested, parent: parent)
        AsyncResolution.active.add(1, ordering: .relaxed)
        defer { AsyncResolution.active.subtract(1, ordering: .relaxed) }
        do {
            return try await AsyncResolution.$current.withValue(node) {
                try await body.makeBoxAsync(dependencies)
            }
        } catch {
            throw Self.wrap(error, path: node.path)
        }
    }
}
