/// A description of one registration, as a `ContainerBehavior` sees it: the type, name, lifetime, where it
/// was written and which container holds it.
///
/// A value copied out of the registration when a behaviour is told about it; holding one keeps nothing alive
/// and changes nothing.
///
/// ```swift
/// struct RegistrationLog: ContainerBehavior {
///     func didRegister(_ info: RegistrationInfo, in container: Container) throws {
///         print(info)   // Logger "primary" (singleton) in app at App/Setup.swift:12
///     }
/// }
/// ```
public struct RegistrationInfo: Sendable, CustomStringConvertible {
    /// The type the registration is resolved as (for an alias made with `implements(_:)`, the alias type).
    public let serviceType: Any.Type
    /// The registration name, `nil` for an unnamed registration.
    public let name: String?
    /// The lifetime; `scope.name` is what diagnostics print (`transient`, `singleton`, `cached`, …).
    public let scope: Scope
    /// Whether a later registration of the same key may replace this one.
    public let overridable: Bool
    /// Where the registration was written.
    public let location: SourceLocation
    /// The name of the container that holds the registration (for a registration of its base chain, the test
    /// container that resolves it).
    public let container: String
    /// The types of the runtime arguments the factory takes, in order; empty for most registrations.
    public let argumentTypes: [Any.Type]
    /// Whether the factory is `async` (registered with `registerAsync`, resolved with `resolveAsync`).
    public let isAsync: Bool
    /// For an alias made with `implements(_:)`, the type of the registration it shares instances with.
    public let aliasedType: Any.Type?
    /// Dependencies known without running the factory (from `autoregister`), each with its
    /// ``Dependency/kind``: `.direct`, or the relationship (`Lazy`, `Provider`, `All`) the parameter asks for.
    public let dependencies: [Dependency]
    /// The service as people write it: `Logger "primary"`, or `\.clock` for a keypath registration.
    public let displayName: String

    package init(_ registration: Registration, in container: Container) {
        serviceType = registration.serviceType
        name = registration.key.name
        scope = registration.scope
        overridable = registration.overridable
        location = registration.location
        // A test container's view of a level of its base holds what the test container built from it.
        self.container = container.testContainerOfView.name
        argumentTypes = registration.argumentTypes
        isAsync = registration.isAsync
        aliasedType = registration.aliasedType
        dependencies = registration.dependencies
        displayName = registration.displayName
    }

    /// `Logger "primary" (singleton) in app at App/Setup.swift:12`.
    public var description: String {
        let alias = aliasedType.map { ", alias of \($0)" } ?? ""
        return "\(displayName) (\(scope)\(alias)) in \(container) at \(location)"
    }
}
