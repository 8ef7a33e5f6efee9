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
