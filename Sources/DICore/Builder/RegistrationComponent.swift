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

/// What `Singleton`, `Transient` and `Register` share: the arguments of one `register` call, turned into a
/// fresh `Registration` (plus its aliases) each time the component is applied.
struct ServiceRecipe<Service>: Sendable {
    let name: String?
    let scope: Scope
    let overridable: Bool
    let location: SourceLocation
    let factory: @Sendable (any Resolver) throws -> Service
    private var aliases: [@Sendable (Registration) -> Registration] = []

    init(
        name: String?,
        scope: Scope,
        overridable: Bool,
        location: SourceLocation,
        factory: @escaping @Sendable (any Resolver) throws -> Service
    ) {
        self.name = name
        self.scope = scope
        self.overridable = overridable
        self.location = location
        self.factory = factory
    }

    func implements<Alias>(_ alias: Alias.Type, name: String?, location: SourceLocation) -> Self {
        var copy = self
        copy.aliases.append { target in
            Container.makeAlias(Alias.self, name: name, of: target, location: location)
        }
        return copy
    }

    var group: RegistrationGroup {
        RegistrationGroup { [self] in
            let registration = Container.makeRegistration(
                Service.self, name: name, scope: scope, overridable: overridable, location: location,
                factory: factory
            )
            return [registration] + aliases.map { $0(registration) }
        }
    }
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
