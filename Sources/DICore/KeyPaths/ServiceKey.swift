/// A key of the keypath registry: the service type, its default factory (or none, for a key the app must
/// provide), and the lifetime of the default.
///
/// Declare keys as computed properties of ``ServiceKeys``; the property's name becomes the key's name in
/// messages (`\.clock`):
///
/// ```swift
/// extension ServiceKeys {
///     var clock: ServiceKey<any Clock> { .init(scope: .singleton) { _ in SystemClock() } }
///     var formatter: ServiceKey<Formatter> { .init { _ in Formatter() } }      // transient
///     var analytics: ServiceKey<any Analytics> { .required() }                 // the app provides it
/// }
/// ```
///
/// A default `.singleton` (or any lifetime that keeps instances) behaves as if it were registered in the
/// root of the asking container: one instance per container tree, whose dependencies come from the root.
/// As with `register`, a lifetime that keeps instances needs a `Sendable` service; a key without `scope:`
/// is transient and accepts any service.
public struct ServiceKey<Service>: Sendable {
    /// The name of the property that declares the key: `clock` for `\.clock`.
    public let name: String
    /// The lifetime of the default, and of a `register(\.key)` that passes no `scope:`.
    public let scope: Scope
    /// Where the key was declared.
    public let location: SourceLocation
    /// The default factory; `nil` for a `.required()` key.
    package let factory: (@Sendable (any Resolver) throws -> Service)?

    /// Whether the key has no default and the app must register it.
    public var isRequired: Bool { factory == nil }

    package init(
        name: String,
        scope: Scope,
        location: SourceLocation,
        factory: (@Sendable (any Resolver) throws -> Service)?
    ) {
        self.name = name
        self.scope = scope
        self.location = location
        self.factory = factory
    }
}

extension ServiceKey where Service: Sendable {
    /// Declares a key whose default is built by `factory` and kept by `scope`.
    ///
    /// ```swift
    /// extension ServiceKeys {
    ///     var clock: ServiceKey<any Clock> { .init(scope: .singleton) { _ in SystemClock() } }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - scope: The lifetime of the default, and of overrides registered without `scope:`.
    ///   - function: The name of the declaring property; leave the default.
    ///   - fileID: The file of the declaration, printed in diagnostics; leave the default.
    ///   - line: The line of the declaration, printed in diagnostics; leave the default.
    ///   - factory: Builds the default; it resolves dependencies through its `Resolver` argument.
    public init(
        scope: Scope,
        function: String = #function,
        fileID: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable (any Resolver) throws -> Service
    ) {
        self.init(
            name: function, scope: scope, location: SourceLocation(fileID: fileID, line: line), factory: factory
        )
    }

    /// Declares a key without a default, kept by `scope` once the app provides it.
    ///
    /// ```swift
    /// extension ServiceKeys {
    ///     var session: ServiceKey<Session> { .required(scope: .singleton) }
    /// }
    /// try app.register(\.session) { _ in Session() }       // a singleton
    /// ```
    ///
    /// - Parameters:
    ///   - scope: The lifetime of registrations made with `register(\.key)` without `scope:`.
    ///   - function: The name of the declaring property; leave the default.
    ///   - fileID: The file of the declaration, printed in diagnostics; leave the default.
    ///   - line: The line of the declaration, printed in diagnostics; leave the default.
    public static func required(
        scope: Scope,
        function: String = #function,
        fileID: String = #fileID,
        line: Int = #line
    ) -> ServiceKey {
        ServiceKey(name: function, scope: scope, location: SourceLocation(fileID: fileID, line: line), factory: nil)
    }
}

extension ServiceKey {
    /// Declares a key whose default is built anew by `factory` on every resolve (transient).
    ///
    /// The service need not be `Sendable`.
    ///
    /// ```swift
    /// extension ServiceKeys {
    ///     var formatter: ServiceKey<Formatter> { .init { _ in Formatter() } }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - function: The name of the declaring property; leave the default.
    ///   - fileID: The file of the declaration, printed in diagnostics; leave the default.
    ///   - line: The line of the declaration, printed in diagnostics; leave the default.
    ///   - factory: Builds the default; it resolves dependencies through its `Resolver` argument.
    public init(
        function: String = #function,
        fileID: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable (any Resolver) throws -> Service
    ) {
        self.init(
            name: function, scope: .transient, location: SourceLocation(fileID: fileID, line: line),
            factory: factory
        )
    }

    /// Declares a key without a default: a library declares it, the app provides it.
    ///
    /// Resolving it before any container on the path registered it throws `requiredKeyMissing`, naming the
    /// key and the registration the app must add.
    ///
    /// ```swift
    /// extension ServiceKeys {
    ///     var analytics: ServiceKey<any Analytics> { .required() }
    /// }
    /// try app.register(\.analytics) { _ in Telemetry() }
    /// ```
    ///
    /// - Parameters:
    ///   - function: The name of the declaring property; leave the default.
    ///   - fileID: The file of the declaration, printed in diagnostics; leave the default.
    ///   - line: The line of the declaration, printed in diagnostics; leave the default.
    public static func required(
        function: String = #function,
        fileID: String = #fileID,
        line: Int = #line
    ) -> ServiceKey {
        ServiceKey(
            name: function, scope: .transient, location: SourceLocation(fileID: fileID, line: line), factory: nil
        )
    }
}
