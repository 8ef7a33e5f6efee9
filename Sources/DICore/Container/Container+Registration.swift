extension Container {
    /// Registers a factory for `type`, optionally under a name, with a lifetime.
    ///
    /// ```swift
    /// try app.register(Logger.self, scope: .singleton) { _ in ConsoleLogger() }
    /// try app.register(Database.self, name: "primary", scope: .singleton) { r in
    ///     Database(logger: try r.resolve(Logger.self))
    /// }
    /// ```
    ///
    /// Registering a key again replaces the earlier registration (last wins) and drops what it built,
    /// unless either registration is `overridable: false`. Services kept by a lifetime (every scope but
    /// `.transient` and `.graph`) are shared across threads, so they must be `Sendable`; a non-`Sendable`
    /// service registers with the overload without `scope:` and is transient.
    ///
    /// - Parameters:
    ///   - type: The type the service is resolved as, often a protocol existential (`(any Logger).self`).
    ///   - name: A name that tells apart several registrations of one type; named and unnamed never
    ///     satisfy each other.
    ///   - scope: The lifetime; `.transient` by default.
    ///   - overridable: `false` makes every later registration of this key throw.
    ///   - fileID: The file of the registration, printed in diagnostics; leave the default.
    ///   - line: The line of the registration, printed in diagnostics; leave the default.
    ///   - factory: Builds the service; it resolves dependencies through its `Resolver` argument.
    /// - Returns: A handle for adding aliases with `implements(_:)`.
    /// - Throws: `RegistrationError` (`alreadyRegistered`, `invalidScope`, `containerClosed`).
    @discardableResult
    public func register<Service: Sendable>(
        _ type: Service.Type,
        name: String? = nil,
        scope: Scope = .transient,
        overridable: Bool = true,
        fileID: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable (any Resolver) throws -> Service
    ) throws(RegistrationError) -> RegistrationHandle<Service> {
        let registration = Self.makeRegistration(
            type, name: name, scope: scope, overridable: overridable,
            location: SourceLocation(fileID: fileID, line: line), factory: factory
        )
        try add(registration)
        return RegistrationHandle(container: self, registration: registration)
    }

    /// Registers a transient factory for a service that is not `Sendable`.
    ///
    /// A non-`Sendable` service cannot be shared across threads, so it is built anew on every resolve.
    ///
    /// ```swift
    /// try app.register(Formatter.self) { _ in Formatter() }
    /// ```
    ///
    /// - Throws: `RegistrationError` (`alreadyRegistered`, `containerClosed`).
    @discardableResult
    public func register<Service>(
        _ type: Service.Type,
        name: String? = nil,
        overridable: Bool = true,
        fileID: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable (any Resolver) throws -> Service
    ) throws(RegistrationError) -> RegistrationHandle<Service> {
        let registration = Self.makeRegistration(
            type, name: name, scope: .transient, overridable: overridable,
            location: SourceLocation(fileID: fileID, line: line), factory: factory
        )
        try add(registration)
        return RegistrationHandle(container: self, registration: registration)
    }

    /// Registers a value you already made: every resolve returns it, a singleton of this container.
    ///
    /// ```swift
    /// let request = server.child(name: "request", tags: ["request"])
    /// try request.register(RequestInfo.self, value: RequestInfo(id: id, method: "GET", path: "/products"))
    /// try request.register(value: CurrentUser(name: user))      // the type inferred from the value
    /// ```
    ///
    /// The cheapest registration there is — no factory to call, no instance slot, nothing held — which makes
    /// it the way to hand a short-lived child container its own values (a request's ID, its user). As the
    /// first registration of a container it costs not even a registration object until something other than
    /// a resolve (a listing, a diagnostic, a second registration) asks for one. The container hands the value
    /// out and does not own it: `close()` does not dispose a `Disposable` value; whoever made it does.
    /// Registering the key again replaces the value, as for any registration. Errors, `explain`, graphs and
    /// traces show its lifetime as `value`.
    ///
    /// - Parameters:
    ///   - type: The type the value is resolved as; inferred from `value` when left out.
    ///   - name: A name that tells apart several registrations of one type.
    ///   - overridable: `false` makes every later registration of this key throw.
    ///   - fileID: The file of the registration, printed in diagnostics; leave the default.
    ///   - line: The line of the registration, printed in diagnostics; leave the default.
    ///   - value: The value every resolve returns.
    /// - Returns: A handle for adding aliases with `implements(_:)`.
    /// - Throws: `RegistrationError` (`alreadyRegistered`, `containerClosed`).
    @inlinable @discardableResult
    public func register<Service: Sendable>(
        _ type: Service.Type = Service.self,
        name: String? = nil,
        overridable: Bool = true,
        fileID: String = #fileID,
        line: Int = #line,
        value: Service
    ) throws(RegistrationError) -> RegistrationHandle<Service> {
        // The boxes are made here, in the caller's code, where their types are known: made inside a generic
        // function of this module, each would cost a metadata lookup in the runtime per registration.
        let box = InstanceBox(value)
        if overridable {
            // A container with nothing registered yet (a request's) keeps the value without a registration.
            let value = PendingValue(
                key: RegistrationKey(type: ObjectIdentifier(type), name: name, keyPath: 0), box: box,
                serviceType: type, location: SourceLocation(fileID: fileID, line: line),
                makeBody: { ValueBody(unsafeDowncast($0, to: InstanceBox<Service>.self)) }
            )
            if try keepsValue(value) { return RegistrationHandle(container: self, value: value) }
        }
        let registration = try addValue(
            ValueBody(box), published: box, as: type, name: name, overridable: overridable, fileID: fileID,
            line: line
        )
        return RegistrationHandle(container: self, registration: registration)
    }

    /// Keeps `value` without making its registration (see `PendingValue`) when nothing needs one now: this is
    /// an open container with nothing registered, not a test container, no registration batch is open, and no
    /// ancestor holds a registration of the key made `overridable: false`. `false` when the value must be
    /// registered the usual way, which reports whatever refuses it.
    ///
    /// - Throws: `behaviorFailed`, as `add(_:)` does: behaviours are told about the value once it is kept (its
    ///   registration is then made for them).
    @usableFromInline
    func keepsValue(_ value: PendingValue) throws(RegistrationError) -> Bool {
        guard testing == nil, RegistrationBatch.active(for: self) == nil else { return false }
        // The parent borrowed, not retained: it is every request's app container.
        let shadowsFinal = parentReference?.with { parent in
            parent.nearest { ancestor in
                ancestor.registry.mayHoldFinalRegistrations
                    && ancestor.registry.registration(for: value.key)?.overridable == false
            }
        }
        guard shadowsFinal == nil, registry.insertValue(value) else { return false }
        // Its registration is made for behaviours only when some observe this container.
        if BehaviorStore.anyAdded, !effectiveBehaviors.isEmpty {
            try reportRegistered([registration(of: value)])
        }
        return true
    }

    /// The registration of a value this container kept (`PendingValue`): the one its registry made for it
    /// (made now if the value was still kept), or, once the container dropped it (closed, or the key
    /// registered again), one made like it.
    package func registration(of value: PendingValue) -> Registration {
        registry.ownRegistration(for: value.key) ?? value.registration()
    }

    /// Adds the registration of a value whose body and box the caller made (`register(_:value:)`).
    @usableFromInline
    func addValue(
        _ body: any ServiceBody,
        published box: AnyObject,
        as type: Any.Type,
        name: String?,
        overridable: Bool,
        fileID: String,
        line: Int
    ) throws(RegistrationError) -> Registration {
        let registration = Registration.value(
            key: RegistrationKey(type: ObjectIdentifier(type), name: name, keyPath: 0), body: body,
            serviceType: type, overridable: overridable, location: SourceLocation(fileID: fileID, line: line),
            box: box
        )
        try add(registration)
        return registration
    }

    package static func makeRegistration<Service>(
        _ type: Service.Type,
        name: String?,
        keyPath: Int = 0,
        keyPathName: String? = nil,
        scope: Scope,
        overridable: Bool,
        location: SourceLocation,
        dependencies: [Dependency] = [],
        declaresDependencies: Bool = false,
        factory: @escaping @Sendable (any Resolver) throws -> Service
    ) -> Registration {
        Registration(
            key: RegistrationKey(type: ObjectIdentifier(type), name: name, keyPath: keyPath),
            kind: .factory,
            body: FactoryBox(factory, buildsOften: scope.hasLifetimeStrategy),
            serviceType: type,
            scope: scope,
            overridable: overridable,
            location: location,
            dependencies: dependencies,
            declaresDependencies: declaresDependencies,
            keyPathName: keyPathName
        )
    }

    /// Adds a registration after checking its lifetime and the registrations it would replace, then tells
    /// the behaviours. Inside `apply(_:)` of assemblies, the registration is staged instead.
    package func add(_ registration: Registration) throws(RegistrationError) {
        if try staged([registration]) { return }
        // Refused for being closed before anything else: that is the one refusal that no change to the
        // registration undoes. (The registry checks again, under its lock, in case a close comes meanwhile.)
        if isClosed { throw RegistrationError.closed(registration, in: self) }
        if case .lifetime(let lifetime) = registration.scope.kind {
            try lifetime.validate(registration, in: self)
        }
        try checkAncestors(allow: registration)
        let replaced = try registry.insert(registration, into: self) { existing throws(RegistrationError) in
            try self.check(registration, replacing: existing)
        }
        if let replaced { released(replaced) }
        try reportRegistered([registration])
    }

    /// Adds several registrations, all or none, then tells the behaviours. Inside `apply(_:)` of
    /// assemblies, the registrations are staged instead.
    package func add(all registrations: [Registration]) throws(RegistrationError) {
        if try staged(registrations) { return }
        try insertNow(all: registrations)
        try reportRegistered(registrations)
    }

    /// Adds several registrations, all or none, at once: no staging, no behaviours.
    package func insertNow(all registrations: [Registration]) throws(RegistrationError) {
        if isClosed, let first = registrations.first { throw RegistrationError.closed(first, in: self) }
        for registration in registrations {
            if case .lifetime(let lifetime) = registration.scope.kind {
                try lifetime.validate(registration, in: self)
            }
            try checkAncestors(allow: registration)
        }
        let replaced = try registry.insert(all: registrations, into: self) {
            registration, existing throws(RegistrationError) in
            try self.check(registration, replacing: existing, madeWith: registrations)
        }
        for registration in replaced { released(registration) }
    }

    /// Called for a registration that was replaced: what it built is no longer handed out, and is disposed.
    ///
    /// This container holds a singleton's instance; lifetimes of DIScopes may keep instances of it in
    /// descendants (`.scoped`, `.matching`) and outside any container (custom storages); and a test container
    /// made over this container or a descendant (or its view of a level) keeps its own instance of every lifetime
    /// that keeps one. The walk visits them all, so that a replaced registration is kept alive by none of them.
    package func released(_ registration: Registration) {
        var values: [Any] = []
        var subtree = [self]
        while let container = subtree.popLast() {
            var held = container.releaseHeld(of: registration)
            // A slot in a cell (or one that no longer records its instance as held) is emptied by `take`.
            if let slot = container.slots.remove(registration) {
                held.append(HeldInstance(slot: slot, registration: registration))
            }
            // Taken while `container` is retained here: a slot reaches the container that keeps it unretained,
            // and another thread may drop the last other reference to a child or a test container meanwhile.
            values += Self.take(held)
            subtree += container.children + container.testContainers + container.testViews
        }
        if case .lifetime(let lifetime) = registration.scope.kind {
            values += lifetime.release(registration, in: self)
        }
        Self.dispose(values: values)
    }

    /// Refuses `registration` over `existing` when either is `overridable: false`. `together` are the
    /// registrations made in the same call (a `register { … }` block), which it names as such when `existing` is
    /// one of them: nothing of that call is registered, `existing` included.
    func check(_ registration: Registration, replacing existing: Registration?, madeWith together: [Registration] = [])
        throws(RegistrationError)
    {
        guard let existing, !existing.overridable || !registration.overridable else { return }
        let service = registration.displayName
        if together.contains(where: { $0 === existing }) {
            let (first, second) = existing.overridable
                ? ("at \(existing.location)", "at \(registration.location) with overridable: false, which must be the "
                    + "first for its key")
                : ("at \(existing.location) with overridable: false", "at \(registration.location), which cannot "
                    + "replace it")
            throw .alreadyRegistered(
                registration, over: existing, in: name,
                "\(service) is registered twice in one register call on \(name): \(first), and \(second). Nothing "
                    + "of that call was registered. Remove one of the two, or drop overridable: false."
            )
        }
        if !existing.overridable {
            throw .alreadyRegistered(
                registration, over: existing, in: name,
                "\(service) is already registered in \(name) at \(existing.location) with overridable: false, "
                    + "so the registration at \(registration.location) cannot replace it. Remove one of the two, "
                    + "or register the override in a test container built for it."
            )
        }
        if !registration.overridable {
            throw .alreadyRegistered(
                registration, over: existing, in: name,
                "\(service) is already registered in \(name) at \(existing.location); the registration at "
                    + "\(registration.location) is overridable: false and must be the first for its key. Remove "
                    + "the earlier registration, or drop overridable: false."
            )
        }
    }

    func checkAncestors(allow registration: Registration) throws(RegistrationError) {
        // Walked unowned (see `nearest(_:)`): a request's container registers its values per request, and
        // its ancestors are shared by every request.
        var existing: Registration?
        let final = parent?.nearest { ancestor in
            guard ancestor.registry.mayHoldFinalRegistrations else { return false }
            existing = ancestor.registry.registration(for: registration.key)
            return existing?.overridable == false
        }
        if let ancestor = final?.object, let existing {
            throw .alreadyRegistered(
                registration, over: existing, in: name,
                "\(registration.displayName) is registered in \(ancestor.name) at \(existing.location) with "
                    + "overridable: false, so \(name) cannot shadow it (at \(registration.location)). "
                    + "Resolve the ancestor's registration, or make it overridable."
            )
        }
    }
}
