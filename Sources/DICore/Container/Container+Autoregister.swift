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
    @discardableResult
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
            location: SourceLocation(fileID: fileID, line: line), initializer: initializer
        )
    }

    /// Registers a transient, non-`Sendable` service built by an initializer whose parameters are resolved
    /// by type.
    ///
    /// - Throws: `RegistrationError` (`alreadyRegistered`, `containerClosed`).
    @discardableResult
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
            location: SourceLocation(fileID: fileID, line: line), initializer: initializer
        )
    }

    /// What both `autoregister` overloads do; they differ only in the `Sendable` rule for `scope`.
    private func addAutoregistration<Service, each Parameter>(
        _ type: Service.Type,
        name: String?,
        scope: Scope,
        overridable: Bool,
        location: SourceLocation,
        initializer: @escaping @Sendable (repeat each Parameter) throws -> Service
    ) throws(RegistrationError) -> RegistrationHandle<Service> {
        var dependencies: [Dependency] = []
        for parameter in repeat (each Parameter).self { dependencies.append(.parameter(parameter)) }
        let registration = Self.makeRegistration(
            type, name: name, scope: scope, overridable: overridable, location: location,
            dependencies: dependencies, declaresDependencies: true
        ) { r in
            try initializer(repeat try r.resolve((each Parameter).self, name: nil))
        }
        try add(registration)
        return RegistrationHandle(container: self, registration: registration)
    }
}
