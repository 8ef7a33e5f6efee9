/// A registration with any lifetime inside a `register { … }` builder, including the lifetimes of
/// `DIScopes` (`.scoped`, `.cached`, `.weak`, `.matching(_:)`, …).
///
/// ```swift
/// try app.register {
///     Register(Cache.self, scope: .cached) { _ in Cache() }
///     Register(Session.self, scope: .matching("session")) { _ in Session() }
///     Register(Formatter.self) { _ in Formatter() }      // .transient
/// }
/// ```
///
/// The same as `register(_:name:scope:overridable:factory:)`. Services kept by a lifetime (every scope but
/// `.transient` and `.graph`) are shared across threads and must be `Sendable`; a non-`Sendable` service
/// uses the initializer without `scope:` and is transient.
public struct Register<Service>: RegistrationComponent {
    private let recipe: ServiceRecipe<Service>

    /// Describes a transient registration of a service that need not be `Sendable`.
    ///
    /// ```swift
    /// Register(Formatter.self) { _ in Formatter() }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type the service is resolved as.
    ///   - name: A name that tells apart several registrations of one type.
    ///   - overridable: `false` makes every later registration of this key throw.
    ///   - factory: Builds a new instance on every resolve.
    ///   - fileID: The file of the call, printed in diagnostics; leave the default.
    ///   - line: The line of the call, printed in diagnostics; leave the default.
    public init(
        _ type: Service.Type,
        name: String? = nil,
        overridable: Bool = true,
        fileID: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable (any Resolver) throws -> Service
    ) {
        recipe = ServiceRecipe(
            name: name, scope: .transient, overridable: overridable,
            location: SourceLocation(fileID: fileID, line: line), factory: factory
        )
    }

    private init(recipe: ServiceRecipe<Service>) {
        self.recipe = recipe
    }

    /// Exposes the service under `alias` too, sharing its lifetime.
    ///
    /// ```swift
    /// Register(RouterImpl.self, scope: .singleton) { _ in RouterImpl() }.implements((any Router).self)
    /// ```
    ///
    /// - Parameters:
    ///   - alias: The further type, usually a protocol existential.
    ///   - name: The alias's registration name; the service's own name by default.
    ///   - fileID: The file of the call, printed in diagnostics; leave the default.
    ///   - line: The line of the call, printed in diagnostics; leave the default.
    /// - Returns: The component with the alias added.
    public func implements<Alias>(
        _ alias: Alias.Type,
        name: String? = nil,
        fileID: String = #fileID,
        line: Int = #line
    ) -> Register {
        Register(recipe: recipe.implements(alias, name: name, location: SourceLocation(fileID: fileID, line: line)))
    }

    /// The one registration (and its aliases) this component stands for.
    public var registrations: RegistrationGroup { recipe.group }
}

extension Register where Service: Sendable {
    /// Describes a registration of `type` with the lifetime `scope`.
    ///
    /// ```swift
    /// Register(Cache.self, name: "images", scope: .singleton) { _ in Cache(limit: 100) }
    /// ```
    ///
    /// The lifetime is checked when the builder is applied (`.weak`, for instance, refuses value types);
    /// a refused lifetime refuses the whole builder.
    ///
    /// - Parameters:
    ///   - type: The type the service is resolved as.
    ///   - name: A name that tells apart several registrations of one type.
    ///   - scope: The lifetime; `.transient` by default.
    ///   - overridable: `false` makes every later registration of this key throw.
    ///   - factory: Builds the service; it resolves dependencies through its `Resolver` argument.
    ///   - fileID: The file of the call, printed in diagnostics; leave the default.
    ///   - line: The line of the call, printed in diagnostics; leave the default.
    public init(
        _ type: Service.Type,
        name: String? = nil,
        scope: Scope = .transient,
        overridable: Bool = true,
        fileID: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable (any Resolver) throws -> Service
    ) {
        recipe = ServiceRecipe(
            name: name, scope: scope, overridable: overridable,
            location: SourceLocation(fileID: fileID, line: line), factory: factory
        )
    }
}
