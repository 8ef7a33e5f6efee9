/// A `.singleton` registration inside a `register { … }` builder: one instance per registering container,
/// built on first resolve.
///
/// ```swift
/// try app.register {
///     Singleton(Clock.self) { _ in SystemClock() }
///     Singleton(Database.self, name: "primary") { r in Database(logger: try r.resolve((any Logger).self)) }
///     Singleton(RouterImpl.self) { _ in RouterImpl() }
///         .implements((any Router).self)
/// }
/// ```
///
/// The same as `register(_:name:scope:overridable:factory:)` with `scope: .singleton`; the service is
/// shared across threads, so it must be `Sendable`.
public struct Singleton<Service: Sendable>: RegistrationComponent {
    private let recipe: ServiceRecipe<Service>

    /// Describes a singleton registration of `type`.
    ///
    /// - Parameters:
    ///   - type: The type the service is resolved as, often a protocol existential (`(any Clock).self`).
    ///   - name: A name that tells apart several registrations of one type.
    ///   - overridable: `false` makes every later registration of this key throw.
    ///   - factory: Builds the service once; dependencies come from the registering container.
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
            name: name, scope: .singleton, overridable: overridable,
            location: SourceLocation(fileID: fileID, line: line), factory: factory
        )
    }

    private init(recipe: ServiceRecipe<Service>) {
        self.recipe = recipe
    }

    /// Exposes the singleton under `alias` too; every alias yields the identical instance.
    ///
    /// ```swift
    /// Singleton(RouterImpl.self) { _ in RouterImpl() }
    ///     .implements((any Router).self)
    ///     .implements((any DeeplinkHandler).self)
    /// ```
    ///
    /// The alias is applied together with the rest of the builder. It is checked when resolved: an instance
    /// that does not conform makes the resolve throw `typeMismatch`.
    ///
    /// - Parameters:
    ///   - alias: The further type, usually a protocol existential.
    ///   - name: The alias's registration name; the singleton's own name by default.
    ///   - fileID: The file of the call, printed in diagnostics; leave the default.
    ///   - line: The line of the call, printed in diagnostics; leave the default.
    /// - Returns: The component with the alias added.
    public func implements<Alias>(
        _ alias: Alias.Type,
        name: String? = nil,
        fileID: String = #fileID,
        line: Int = #line
    ) -> Singleton {
        Singleton(recipe: recipe.implements(alias, name: name, location: SourceLocation(fileID: fileID, line: line)))
    }

    /// The one registration (and its aliases) this component stands for.
    public var registrations: RegistrationGroup { recipe.group }
}
