extension Container {
    /// Registers a service built by an initializer whose every parameter is resolved by type.
    ///
    /// ```swift
    /// struct DefaultRepository: Repository { init(database: Database, logger: any Logger) { … } }
    /// try app.autoregister(Repository.self, scope: .singleton, initializer: DefaultRepository.init)
    /// ```
    ///
    /// The parameter types are recorded as the registration's dependencies, so diagnostics can draw the
    /// graph without running any factory. A parameter may be a relationship instead of the service itself
    /// (`Lazy<T>`, `Provider<T>`, `Provider<T, Argument>`, `All<T>`), recorded with its own
    /// ``Dependency/Kind``; an optional parameter (`Cache?`) is `nil` only when nothing is registered.
    ///
    /// - Throws: `RegistrationError` (`alreadyRegistered`, `invalidScope`, `containerClosed`).
    @inlinable @discardableResult
    public func autoregister<Service: Sendable, each Parameter>(
        _ type: Service.Type,
        name: String? = nil,
        scope: Scope = .transient,
        overridable: Bool = true,
        fileID: String = #fileID,
        line: Int = #line,
        initializer: @escaping @Sendable (repeat each Parameter) throws -> Service
    ) throws(RegistrationError) -> RegistrationHandle<Service> {
        try addAutoregistration(
            type, name: name, scope: scope, overridable: overridable,
            location: SourceLocation(fileID: fileID, line: line), parameters: repeat (each Parameter).self,
            factory: Self.factory(calling: initializer)
        )
    }

    /// Registers a transient, non-`Sendable` service built by an initializer whose parameters are resolved
    /// by type.
    ///
    /// - Throws: `RegistrationError` (`alreadyRegistered`, `containerClosed`).
    @inlinable @discardableResult
    public func autoregister<Service, each Parameter>(
        _ type: Service.Type,
        name: String? = nil,
        overridable: Bool = true,
        fileID: String = #fileID,
        line: Int = #line,
        initializer: @escaping @Sendable (repeat each Parameter) throws -> Service
    ) throws(RegistrationError) -> RegistrationHandle<Service> {
        try addAutoregistration(
            type, name: name, scope: .transient, overridable: overridable,
            location: SourceLocation(fileID: fileID, line: line), parameters: repeat (each Parameter).self,
            factory: Self.factory(calling: initializer)
        )
    }

    /// The factory of an `autoregister`: resolves each parameter, then calls `initializer`.
    ///
    /// Made in the caller's code, where the parameter types are known: calling `initializer` then needs no
    /// metadata of the parameter list, which a factory made inside this module would ask the runtime for on
    /// every build. Each parameter is still resolved through the generic `Container.resolve(_:name:)`, not a
    /// copy specialised for its type: the compiler specialises the closure for the whole parameter pack, not
    /// the calls its `repeat` makes for each element. (Overloads for one, two and three parameters, whose
    /// calls are specialised, measured 1.2% fewer instructions for a request that builds three services;
    /// not worth a public overload per arity.)
    @inlinable
    static func factory<Service, each Parameter>(
        calling initializer: @escaping @Sendable (repeat each Parameter) throws -> Service
    ) -> @Sendable (any Resolver) throws -> Service {
        // `resolve(_:)`, not the requirement: it calls the container behind the resolver directly.
        { resolver in try initializer(repeat try resolver.resolve((each Parameter).self)) }
    }

    /// What both `autoregister` overloads do; they differ only in the `Sendable` rule for `scope`.
    @usableFromInline
    func addAutoregistration<Service, each Parameter>(
        _ type: Service.Type,
        name: String?,
        scope: Scope,
        overridable: Bool,
        location: SourceLocation,
        parameters: repeat (each Parameter).Type,
        factory: @escaping @Sendable (any Resolver) throws -> Service
    ) throws(RegistrationError) -> RegistrationHandle<Service> {
        var dependencies: [Dependency] = []
        for parameter in repeat each parameters { dependencies.append(.parameter(parameter)) }
        let registration = Self.makeRegistration(
            type, name: name, scope: scope, overridable: overridable, location: location,
            dependencies: dependencies, declaresDependencies: true, factory: factory
        )
        try add(registration)
        return RegistrationHandle(container: self, registration: registration)
    }
}
