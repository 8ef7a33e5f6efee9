/// A `.transient` registration inside a `register { … }` builder: a new instance on every resolve.
///
/// ```swift
/// try app.register {
///     Transient(Formatter.self) { _ in Formatter() }
///     Transient(Request.self, name: "authorized") { r in Request(token: try r.resolve(Token.self)) }
/// }
/// ```
///
/// Nobody holds a transient instance, so the service need not be `Sendable`.
public struct Transient<Service>: RegistrationComponent {
    private let recipe: ServiceRecipe<Service>

    /// Describes a transient registration of `type`.
    ///
    /// - Parameters:
    ///   - type: The type the service is resolved as.
    ///   - name: A name that tells apart several registrations of one type.
    ///   - overridable: `false` makes every later registration of this key throw.
    ///   - factory: Builds a new instance on every resolve; dependencies come from the container asked.
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

    /// Exposes the service under `alias` too; each resolve of the alias builds a new instance.
    ///
    /// ```swift
    /// Transient(JSONFormatter.self) { _ in JSONFormatter() }.implements((any OutputFormatter).self)
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
    ) -> Transient {
        Transient(recipe: recipe.implements(alias, name: name, location: SourceLocation(fileID: fileID, line: line)))
    }

    /// The one registration (and its aliases) this component stands for.
    public var registrations: RegistrationGroup { recipe.group }
}
