/// What a factory resolves its dependencies through; `Container` is one.
///
/// A factory receives the resolver of the container its dependencies come from (the registering container
/// for a `.singleton`, the asking container for a `.transient`):
///
/// ```swift
/// try app.register(Database.self, name: "primary", scope: .singleton) { r in
///     Database(logger: try r.resolve(Logger.self))
/// }
/// ```
///
/// The active resolution (the path, for cycle detection and messages) travels with the thread or task, not
/// only with this argument, so a factory that resolves through a captured container is checked too.
///
/// The protocol is class-bound so that `any Resolver` is a single reference: handing it to a factory and
/// recognising a `Container` behind it cost nothing on the resolve path.
public protocol Resolver: AnyObject, Sendable {
    /// Resolves the service registered for `type` under `name`.
    ///
    /// - Throws: `ResolutionError`.
    func resolve<Service>(_ type: Service.Type, name: String?) throws -> Service

    /// Resolves a service registered with runtime arguments.
    ///
    /// - Throws: `ResolutionError` (`argumentMismatch` when no registration takes these argument types).
    func resolve<Service, each Argument>(
        _ type: Service.Type,
        name: String?,
        arguments: repeat each Argument
    ) throws -> Service

    /// Resolves the service, or returns `nil` when nothing is registered for it; a failing factory still throws.
    func resolveIfRegistered<Service>(_ type: Service.Type, name: String?) throws -> Service?

    /// Resolves every registration of `type`, under every name, nearest container first.
    func resolveAll<Service>(_ type: Service.Type) throws -> [Service]

    /// Whether `type` under `name` is registered here or in an ancestor.
    func isRegistered<Service>(_ type: Service.Type, name: String?) -> Bool

    /// Resolves the service, running `async` factories.
    func resolveAsync<Service>(_ type: Service.Type, name: String?) async throws -> Service
}

extension Resolver {
    /// Resolves every registration of `type`, under every name, nearest container first, running `async`
    /// factories too: ``Container/resolveAllAsync(_:)`` for a container; a resolver of another kind resolves
    /// them with `resolveAll(_:)`.
    ///
    /// ```swift
    /// try app.registerAsync(Index.self) { r in Index(stores: try await r.resolveAllAsync((any Store).self)) }
    /// ```
    ///
    /// - Throws: `ResolutionError`.
    public func resolveAllAsync<Service>(_ type: Service.Type) async throws -> [Service] {
        guard let container = self as? Container else { return try resolveAll(type) }
        return try await container.resolveAllAsync(type)
    }

    /// Resolves the unnamed registration of `type`, or of the type the context expects.
    ///
    /// ```swift
    /// let logger: any Logger = try r.resolve()
    /// ```
    @inlinable @inline(__always)
    public func resolve<Service>(_ type: Service.Type = Service.self) throws -> Service {
        // Factories receive a `Container` behind `any Resolver`; calling it directly lets the compiler
        // specialize the resolve for `Service` here instead of going through the generic witness.
        // Checked without a retain: the caller keeps `self`, and with it the container, alive.
        if let container = Unsafe.Unowned<Container>.cast(self) {
            return try container.with { try $0.resolve(type, name: nil) }
        }
        return try resolve(type, name: nil)
    }

    /// Resolves the registration of `type` under `name`.
    ///
    /// ```swift
    /// try app.register(Repository.self) { r in Repository(db: try r.resolve(Database.self, name: "primary")) }
    /// ```
    ///
    /// The same as the requirement `resolve(_:name:)`, for a name that is not optional: a factory's `Container`
    /// is recognised without a retaining cast, as in `resolve(_:)`.
    ///
    /// - Throws: `ResolutionError`.
    @inlinable @inline(__always)
    public func resolve<Service>(_ type: Service.Type = Service.self, name: String) throws -> Service {
        if let container = Unsafe.Unowned<Container>.cast(self) {
            // `Optional(name)`: the requirement's form, not this shorthand again.
            return try container.with { try $0.resolve(type, name: Optional(name)) }
        }
        return try resolve(type, name: Optional(name))
    }

    /// Resolves a service registered with one runtime argument.
    public func resolve<Service, Argument>(
        _ type: Service.Type = Service.self,
        name: String? = nil,
        argument: Argument
    ) throws -> Service {
        try resolve(type, name: name, arguments: argument)
    }

    /// Resolves the unnamed registration, or `nil` when nothing is registered for it.
    public func resolveIfRegistered<Service>(_ type: Service.Type = Service.self) throws -> Service? {
        try resolveIfRegistered(type, name: nil)
    }

    /// Whether the unnamed registration of `type` exists here or in an ancestor.
    public func isRegistered<Service>(_ type: Service.Type) -> Bool {
        isRegistered(type, name: nil)
    }

    /// Resolves the unnamed registration, running `async` factories.
    public func resolveAsync<Service>(_ type: Service.Type = Service.self) async throws -> Service {
        try await resolveAsync(type, name: nil)
    }
}
