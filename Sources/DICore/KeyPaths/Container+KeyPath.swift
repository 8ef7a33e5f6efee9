extension Container {
    /// Resolves a key of the keypath registry: the nearest container's registration of the key, else the
    /// key's default.
    ///
    /// ```swift
    /// extension ServiceKeys {
    ///     var clock: ServiceKey<any Clock> { .init(scope: .singleton) { _ in SystemClock() } }
    /// }
    /// let clock = try checkout.resolve(\.clock)
    /// ```
    ///
    /// The default is installed, on first use, in the root of this container as an ordinary registration of
    /// the key (it then shows in diagnostics, located where the key was declared): a default `.singleton`
    /// is one instance per tree, and its dependencies come from the root. Registering the key in the root
    /// afterwards replaces the default; registering it in any other container shadows it for that subtree.
    ///
    /// - Parameter key: The key path of the key: `\.clock`.
    /// - Throws: `ResolutionError` — `requiredKeyMissing` for a `.required()` key that no container on the
    ///   path registered, or whatever building the service throws.
    public func resolve<Service>(_ key: ServiceKeyPath<Service>) throws -> Service {
        let id = KeyPathInterner.shared.id(for: key)
        let registrationKey = RegistrationKey(type: ObjectIdentifier(Service.self), name: nil, keyPath: id)
        if let (registration, owner) = lookup(registrationKey) {
            return try resolveFound(registration, in: owner, as: Service.self)
        }
        if isClosed { throw closedError(Service.self, name: nil) }
        let declared = ServiceKeys()[keyPath: key]
        let registration = try installDefault(of: declared, as: registrationKey)
        return try resolve(registration, from: defaultsRoot, as: Service.self)
    }

    /// Where this container's keypath defaults are installed and kept: its root, or, for a view of a test
    /// container, the test container, which its other views read too (see `TestContainerLink`).
    private var defaultsRoot: Container { testContainerOfView.root }

    /// Registers `factory` for a key of the keypath registry in this container, overriding the key's
    /// default (or an ancestor's registration) for this container and its descendants.
    ///
    /// The registration keeps the key's lifetime. Keys of a lifetime that keeps instances can only be
    /// declared for `Sendable` services, so the override is as safe as the declaration.
    ///
    /// ```swift
    /// try checkout.register(\.clock) { _ in FixedClock() }
    /// try app.register(\.analytics) { r in Telemetry(logger: try r.resolve(Logger.self)) }
    /// ```
    ///
    /// - Parameters:
    ///   - key: The key path of the key: `\.clock`.
    ///   - overridable: `false` makes every later registration of this key here or below throw.
    ///   - fileID: The file of the call, printed in diagnostics; leave the default.
    ///   - line: The line of the call, printed in diagnostics; leave the default.
    ///   - factory: Builds the service; it resolves dependencies through its `Resolver` argument.
    /// - Returns: A handle for adding aliases with `implements(_:)`.
    /// - Throws: `RegistrationError` (`alreadyRegistered`, `invalidScope`, `containerClosed`).
    @discardableResult
    public func register<Service>(
        _ key: ServiceKeyPath<Service>,
        overridable: Bool = true,
        fileID: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable (any Resolver) throws -> Service
    ) throws(RegistrationError) -> RegistrationHandle<Service> {
        let declared = ServiceKeys()[keyPath: key]
        return try register(
            key, declared: declared, scope: declared.scope, overridable: overridable,
            location: SourceLocation(fileID: fileID, line: line), factory: factory
        )
    }

    /// Registers `factory` for a key of the keypath registry with a lifetime of its own.
    ///
    /// ```swift
    /// try session.register(\.clock, scope: .singleton) { _ in FixedClock() }
    /// ```
    ///
    /// - Parameters:
    ///   - key: The key path of the key: `\.clock`.
    ///   - scope: The lifetime of this registration, instead of the key's.
    ///   - overridable: `false` makes every later registration of this key here or below throw.
    ///   - fileID: The file of the call, printed in diagnostics; leave the default.
    ///   - line: The line of the call, printed in diagnostics; leave the default.
    ///   - factory: Builds the service; it resolves dependencies through its `Resolver` argument.
    /// - Returns: A handle for adding aliases with `implements(_:)`.
    /// - Throws: `RegistrationError` (`alreadyRegistered`, `invalidScope`, `containerClosed`).
    @discardableResult
    public func register<Service: Sendable>(
        _ key: ServiceKeyPath<Service>,
        scope: Scope,
        overridable: Bool = true,
        fileID: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable (any Resolver) throws -> Service
    ) throws(RegistrationError) -> RegistrationHandle<Service> {
        try register(
            key, declared: ServiceKeys()[keyPath: key], scope: scope, overridable: overridable,
            location: SourceLocation(fileID: fileID, line: line), factory: factory
        )
    }

    private func register<Service>(
        _ key: ServiceKeyPath<Service>,
        declared: ServiceKey<Service>,
        scope: Scope,
        overridable: Bool,
        location: SourceLocation,
        factory: @escaping @Sendable (any Resolver) throws -> Service
    ) throws(RegistrationError) -> RegistrationHandle<Service> {
        let registration = Self.makeRegistration(
            Service.self, name: nil, keyPath: KeyPathInterner.shared.id(for: key), keyPathName: declared.name,
            scope: scope, overridable: overridable, location: location, factory: factory
        )
        try add(registration)
        return RegistrationHandle(container: self, registration: registration)
    }

    /// The registration `resolve(key)` builds: the nearest container's registration of the key, else the key's
    /// default, installed in the root now.
    ///
    /// - Throws: `requiredKeyMissing` for a `.required()` key that no container on the path registered, or
    ///   `containerClosed`.
    func registration<Service>(for key: ServiceKeyPath<Service>) throws -> Registration {
        if isClosed { throw closedError(Service.self, name: nil) }
        let id = KeyPathInterner.shared.id(for: key)
        let registrationKey = RegistrationKey(type: ObjectIdentifier(Service.self), name: nil, keyPath: id)
        if let (registration, _) = lookup(registrationKey) { return registration }
        return try installDefault(of: ServiceKeys()[keyPath: key], as: registrationKey)
    }

    /// Installs the default of `key` in the root, or returns the registration another thread installed first.
    private func installDefault<Service>(of key: ServiceKey<Service>, as registrationKey: RegistrationKey) throws
        -> Registration
    {
        guard let factory = key.factory else { throw requiredKeyMissing(key, registrationKey) }
        let root = defaultsRoot
        let registration = Self.makeRegistration(
            Service.self, name: nil, keyPath: registrationKey.keyPath, keyPathName: key.name, scope: key.scope,
            overridable: true, location: key.location, factory: factory
        )
        if case .lifetime(let lifetime) = registration.scope.kind {
            try lifetime.validate(registration, in: root)
        }
        var installedMeanwhile: Registration?
        do {
            // Registering replaces; a default must not replace what another thread (or the app) put there
            // since the lookup, or two threads would each keep their own "one instance per tree".
            _ = try root.registry.insert(registration, into: root) { existing throws(RegistrationError) in
                guard let existing else { return }
                installedMeanwhile = existing
                throw RegistrationError(
                    code: .alreadyRegistered, service: registration.displayName, container: root.name,
                    location: registration.location, message: "The default was installed meanwhile."
                )
            }
        } catch {
            if let installedMeanwhile { return installedMeanwhile }
            throw root.closedError(Service.self, name: nil)
        }
        return registration
    }

    private func requiredKeyMissing<Service>(_ key: ServiceKey<Service>, _ registrationKey: RegistrationKey)
        -> ResolutionError
    {
        let keyName = "\\.\(key.name)"
        // A test container's lookup goes on through its base's tree, which the app registers in: it searched more
        // containers than its ancestry. (A view of it registers nothing: the test container is where to register.)
        let searched = registrationSources.filter { $0.container.viewedLevel == nil }.map(\.container.name)
        let test = testContainerOfView
        let place = testing != nil || searched.count > ancestry.count
            ? "register it in \(test.name) for this test alone, or in \(searched.last ?? name) for every test"
            : "register it in \(name) or an ancestor"
        return ResolutionError(
            code: .requiredKeyMissing,
            requestedType: Service.self,
            name: nil,
            path: ResolutionStack.current.path(then: PathElement(key: key.name, type: Service.self, in: self)),
            searchedContainers: searched,
            detail: "\(keyName) (\(ServiceName.readable(Service.self))) is declared at \(key.location) without a "
                + "default, so the app must provide it: \(place), for example "
                + "`try container.register(\(keyName)) { r in … }`.",
            // For the close matches: an app that registered it in its own root, asked from `Container.shared`.
            context: LookupContext(container: self, key: registrationKey, type: Service.self, keyPathName: key.name)
        )
    }
}

extension PathElement {
    /// A step for a keypath-registry key that no container provides.
    init(key name: String, type: Any.Type, in container: Container) {
        self.type = type
        self.name = nil
        self.container = container.name
        registeredIn = nil
        location = nil
        scope = nil
        keyPathName = name
        onAnotherThread = false
    }
}

extension Resolver {
    /// Resolves a key of the keypath registry, from inside a factory.
    ///
    /// ```swift
    /// try app.register(Scheduler.self) { r in Scheduler(clock: try r.resolve(\.clock)) }
    /// ```
    ///
    /// - Parameter key: The key path of the key: `\.clock`.
    /// - Throws: `ResolutionError`, as `Container.resolve(\.key)` does.
    public func resolve<Service>(_ key: ServiceKeyPath<Service>) throws -> Service {
        guard let container = self as? Container else {
            throw ResolutionError(
                code: .notRegistered,
                requestedType: Service.self,
                name: nil,
                path: ResolutionStack.current.path,
                detail: "Keys of the keypath registry resolve through a Container; \(type(of: self)) is not one."
            )
        }
        return try container.resolve(key)
    }
}
