/// Registrations described by a `register { … }` builder, applied together, all or none.
///
/// You rarely name this type: the builder makes one from its components. Name it to return a reusable
/// group from a function or property:
///
/// ```swift
/// @RegistrationBuilder
/// func loggingServices(verbose: Bool) -> RegistrationGroup {
///     Singleton((any Logger).self) { _ in ConsoleLogger(verbose: verbose) }
///     if verbose {
///         Transient(Tracer.self) { r in Tracer(logger: try r.resolve((any Logger).self)) }
///     }
/// }
///
/// try app.register { loggingServices(verbose: true) }
/// ```
///
/// A group holds recipes, not registrations: each time it is applied it makes new registrations, so the
/// same group applied to two containers gives each its own singletons.
public struct RegistrationGroup: RegistrationComponent {
    private let makers: [@Sendable () -> [Registration]]

    /// An empty group, which registers nothing.
    ///
    /// ```swift
    /// let none = RegistrationGroup()
    /// try app.register { none }   // does nothing
    /// ```
    public init() {
        makers = []
    }

    package init(_ make: @escaping @Sendable () -> [Registration]) {
        makers = [make]
    }

    init(combining groups: [RegistrationGroup]) {
        makers = groups.flatMap(\.makers)
    }

    /// The group itself.
    public var registrations: RegistrationGroup { self }

    /// New registrations for every component of the group, in the order they were written.
    package func makeRegistrations() -> [Registration] {
        makers.flatMap { $0() }
    }
}
