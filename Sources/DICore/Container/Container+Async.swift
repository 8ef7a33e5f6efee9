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
    /// An `async` singleton that is built already is returned as `resolve(_:name:)` returns a built singleton:
    /// without a lock or an allocation, at the cost of a synchronous resolve.
    ///
    /// - Throws: `ResolutionError`.
    @inlinable
    public func resolveAsync<Service>(_ type: Service.Type = Service.self, name: String? = nil) async throws
        -> Service
    {
        // Inlined, so that the caller's module reads a built singleton's box as its own type, without asking the
        // runtime for the box type's metadata as generic code of this module would.
        if let built = builtAsyncSingleton(type, name: name) { return built }
        return try await resolveAsyncFully(type, name: name)
    }

    /// `resolveAsync` for everything but a built `async` singleton.
    @usableFromInline
    func resolveAsyncFully<Service>(_ type: Service.Type, name: String?) async throws -> Service {
        let key = RegistrationKey(type, name: name)
        if isClosed { throw closedError(type, name: name) }
        guard let (registration, owner) = lookup(key) else {
            if let implicit = type as? any ImplicitService.Type {
                if ResolutionTaps.anyInstalled, registry.isTapped { reportImplicit(type, name: name) }
                return try implicit.resolveImplicitly(from: self, name: name) as! Service
            }
            throw missing(key, type)
        }
        var (target, targetOwner) = (registration, owner)
        if let aliased = registration.aliasTarget {
            (target, targetOwner) = try aliasTarget(of: registration, key: aliased, in: owner, as: type)
        }
        guard case .asyncFactory = target.kind else { return try resolve(registration, from: owner, as: type) }
        let box = try await instanceBoxAsync(of: target, from: targetOwner, requested: type)
        let value: Service = target === registration
            ? unsafeDowncast(box, to: InstanceBox<Service>.self).value
            : try cast(target.body.unbox(box), through: registration, target: target)
        if registry.needsSlowPath { reportResolved(registration, heldBy: owner, instance: value) }
        return value
    }

    /// The instance of an `async` singleton that is built already, found as `resolve(_:name:)` finds a service —
    /// in the published tables of this container and its ancestors, without a lock or a reference count — or
    /// `nil` for anything else, which `resolveAsync` resolves the full way: not built yet, another lifetime or
    /// kind, an alias, a closed or observed container, a test container's base chain, a value a request's
    /// container keeps. A handler's `resolveAsync` of the app's `async` singleton then costs what a synchronous
    /// resolve of a singleton costs, where the full way looks the key up under locks and asks the lifetime.
    @inlinable
    func builtAsyncSingleton<Service>(_ type: Service.Type, name: String?) -> Service? {
        // The registration found is used unretained inside the read section, as the fast path uses it.
        let section = TableReclamation.enter()
        defer { TableReclamation.leave(section) }
        let key = RegistrationKey(type, name: name)
        guard case .table(let found, _) = lookupPublished(key, hash: key.tableHash) else { return nil }
        return found.with { registration -> Service? in
            // A `.singleton` slot is never reset, and its box is read without a lock once stored.
            guard case .asyncFactory = registration.kind, let box = registration.singleton?.publishedBox()
            else { return nil }
            return InstanceBox<Service>.value(in: box)
        }
    }

    /// The boxed instance of a registration for an `async` resolve, placed by its lifetime (package: diagnostics
    /// build every service of a copied tree through it).
    package func instanceBoxAsync(of registration: Registration, from owner: Container, requested: Any.Type)
        async throws -> AnyObject
    {
        let outer = AsyncResolution.current
        do {
            return try await placedAsync(registration, from: owner, requested: requested, in: outer)
        } catch let error as ResolutionError {
            let error = error.asked(as: requested, of: registration)
            guard outer == nil, ResolutionStack.current.isOutermost else { throw error }
            // The request made to this container failed: its error says where it started.
            throw error.requested(from: self)
        }
    }

    /// `instanceBoxAsync` inside the async resolution `outer` (`nil` for a top-level request).
    private func placedAsync(
        _ registration: Registration, from owner: Container, requested: Any.Type, in outer: AsyncResolution?
    ) async throws -> AnyObject {
        let resolution = ResolutionScope.task(outer)
        let token = resolution.buildToken
        switch try placement(of: registration, from: owner, resolution: resolution) {
        // The placement's containers are unretained (see `LifetimePlacement`); those that an `async` build
        // uses across its suspensions are retained for it.
        case .build(let dependencies):
            return try await dependencies.object.buildAsync(registration, requested: requested, token: token)
        case .slot(let slot, let container):
            let builder = container.object
            let (box, built) = try await slot.instance(
                of: registration, resolution: resolution, holder: container
            ) {
                try await builder.buildAsync(registration, requested: requested, token: token)
            }
            if built { try await builder.holdAsync(slot, of: registration, requested: requested) }
            return box
        case .provided(let provider, let dependencies):
            let builder = dependencies.object
            return try await provider.instance(of: registration, resolution: resolution) {
                try await builder.buildAsync(registration, requested: requested, token: token)
            }
        }
    }

    /// Records that this container holds a built instance, as `hold` does, for an `async` resolve: when the
    /// container was closed while the instance was being built, it is disposed as `closeAsync()` disposes
    /// (`disposeRefused`) and the resolve throws `containerClosed`.
    package func holdAsync(_ slot: InstanceSlot, of registration: Registration, requested: Any.Type) async throws {
        guard !tryHold(slot, of: registration) else { return }
        await Self.disposeRefused(HeldInstance(slot: slot, registration: registration))
        throw closedWhileBuildingError(requested, registration)
    }

    /// Disposes of the instance of `held`, which its holder refused because it closed while the instance was
    /// being built: as `closeAsync()` disposes, awaiting an `AsyncDisposable`'s `dispose()`, once `DIScopes` has
    /// said how (`lateAsyncDisposal`); as `close()` disposes until then.
    private static func disposeRefused(_ held: HeldInstance) async {
        guard let disposal = lateAsyncDisposal.load() else { return dispose([held]) }
        for value in take([held]) { await disposal.object.dispose(value) }
    }

    /// How an `async` resolve disposes of an instance its holder refused (see `disposeRefused`). `DIScopes`,
    /// where `AsyncDisposable` is declared, sets it when a container is first closed with `closeAsync()`, before
    /// that close refuses anything; it is never replaced.
    package static let lateAsyncDisposal = Unsafe.AtomicReference<AsyncDisposer>()

    /// Runs the async factory of `registration` in a new node of the task's async path, with this
    /// container as its resolver; `token` is the one the build was claimed with.
    private func buildAsync(_ registration: Registration, requested: Any.Type, token: Int) async throws
        -> AnyObject
    {
        let parent = AsyncResolution.current
        let element = PathElement(registration, requested: requested, in: self)
        if let parent, parent.contains(registration, in: self) {
            throw cycleError(
                registration, requested: requested, after: parent.path,
                itself: parent.registration === registration && parent.container === self
            )
        }
        let limit = Container.resolutionDepthLimit
        if let parent, parent.depth >= limit {
            throw ResolutionError.tooDeep(path: parent.path + [element], limit: limit)
        }
        let body = registration.body
        guard body.buildsAsynchronously else {
            return try build(registration, dependencies: self, requested: requested)
        }
        let node = AsyncResolution(registration, in: self, requested: requested, parent: parent, token: token)
        AsyncResolution.active.add(1, ordering: .relaxed)
        defer { AsyncResolution.active.subtract(1, ordering: .relaxed) }
        do {
            return try await AsyncResolution.$current.withValue(node) {
                try await body.makeBoxAsync(self)
            }
        } catch {
            throw Self.wrap(error, path: node.path)
        }
    }
}

/// Disposes of an instance in an `async` context: what `Container.lateAsyncDisposal` holds.
package final class AsyncDisposer: Sendable {
    let dispose: @Sendable (Any) async -> Void

    package init(_ dispose: @escaping @Sendable (Any) async -> Void) {
        self.dispose = dispose
    }
}
