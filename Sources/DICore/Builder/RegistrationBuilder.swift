/// Builds a `RegistrationGroup` from registration components, so one `try` registers many services, all or
/// none.
///
/// ```swift
/// try app.register {
///     Singleton(Clock.self) { _ in SystemClock() }
///     Transient(Formatter.self) { _ in Formatter() }
///     Register(Cache.self, name: "images", scope: .singleton) { _ in Cache(limit: 100) }
///     if configuration.isDebug {
///         Singleton((any Logger).self) { _ in VerboseLogger() }
///     } else {
///         Singleton((any Logger).self) { _ in ConsoleLogger() }
///     }
///     for region in configuration.regions {
///         Singleton(RegionClient.self, name: region.id) { _ in RegionClient(region) }
///     }
/// }
/// ```
///
/// Components: `Singleton`, `Transient`, `Register` (any lifetime, including those of `DIScopes`), a
/// `RegistrationGroup`, and your own `RegistrationComponent`s. `if`, `if`/`else`, `switch`, `for … in` and
/// `if #available` work as in any result builder.
@resultBuilder
public enum RegistrationBuilder {
    /// Turns one component (`Singleton`, `Transient`, `Register`, a group) into a group.
    ///
    /// - Parameter component: A component written on its own line in the builder.
    public static func buildExpression(_ component: some RegistrationComponent) -> RegistrationGroup {
        component.registrations
    }

    /// Takes a group as it is (a group returned by a function, or a component's `registrations`).
    ///
    /// - Parameter group: A group written on its own line in the builder.
    public static func buildExpression(_ group: RegistrationGroup) -> RegistrationGroup {
        group
    }

    /// Joins the components of one block, in the order they were written.
    ///
    /// - Parameter groups: The block's components.
    public static func buildBlock(_ groups: RegistrationGroup...) -> RegistrationGroup {
        RegistrationGroup(combining: groups)
    }

    /// An `if` without `else`: the components when the condition held, nothing otherwise.
    ///
    /// - Parameter group: The `if` branch, or `nil`.
    public static func buildOptional(_ group: RegistrationGroup?) -> RegistrationGroup {
        group ?? RegistrationGroup()
    }

    /// The first branch of an `if`/`else` or `switch`.
    ///
    /// - Parameter group: The branch that was taken.
    public static func buildEither(first group: RegistrationGroup) -> RegistrationGroup {
        group
    }

    /// The second branch of an `if`/`else` or `switch`.
    ///
    /// - Parameter group: The branch that was taken.
    public static func buildEither(second group: RegistrationGroup) -> RegistrationGroup {
        group
    }

    /// A `for … in` loop: every iteration's components, in order.
    ///
    /// - Parameter groups: One group per iteration.
    public static func buildArray(_ groups: [RegistrationGroup]) -> RegistrationGroup {
        RegistrationGroup(combining: groups)
    }

    /// An `if #available` block.
    ///
    /// - Parameter group: The block's components.
    public static func buildLimitedAvailability(_ group: RegistrationGroup) -> RegistrationGroup {
        group
    }
}
