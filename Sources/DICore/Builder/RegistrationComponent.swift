/// Something that stands for one or more registrations inside a `register { … }` builder: `Singleton`,
/// `Transient`, `Register`, or a group of your own.
///
/// Conform to bundle registrations that belong together and reuse them in several containers or
/// assemblies; the `registrations` property is itself a `@RegistrationBuilder`:
///
/// ```swift
/// struct NetworkStack: RegistrationComponent {
///     var baseURL: URL
///
///     var registrations: RegistrationGroup {
///         Singleton(HTTPClient.self) { _ in URLSessionClient(baseURL: baseURL) }
///         Transient(Request.Builder.self) { _ in Request.Builder() }
///     }
/// }
///
/// try app.register {
///     NetworkStack(baseURL: production)
///     Singleton(Clock.self) { _ in SystemClock() }
/// }
/// ```
///
/// A component only describes registrations; it makes new ones each time it is applied, so one component
/// value applied to two containers gives each container its own singleton.
public protocol RegistrationComponent: Sendable {
    /// The registrations this component stands for.
    @RegistrationBuilder var registrations: RegistrationGroup { get }
}

extension Container {
    /// A registration that exposes `registration`'s instances as `alias` too (what `implements(_:)` adds).
    package static func makeAlias<Alias>(
        _ alias: Alias.Type,
        name: String?,
        of registration: Registration,
        location: SourceLocation
    ) -> Registration {
        Registration(
            key: RegistrationKey(type: ObjectIdentifier(alias), name: name ?? registration.key.name),
            kind: .alias(of: registration.aliasTarget ?? registration.key),
            body: AliasBox<Alias>(),
            serviceType: alias,
            scope: registration.scope,
            overridable: registration.overridable,
            location: location,
            aliasOf: registration
        )
    }
}
