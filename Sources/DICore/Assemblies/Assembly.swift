/// A module's registrations, grouped so that an app can apply them in one call and swap one module for
/// another (a live network module for a fake one in previews).
///
/// ```swift
/// struct NetworkAssembly: Assembly {
///     func assemble(into container: Container) throws {
///         try container.register(HTTPClient.self, scope: .singleton) { r in
///             URLSessionClient(logger: try r.resolve((any Logger).self))
///         }
///         try container.register {
///             Transient(Request.Builder.self) { _ in Request.Builder() }
///         }
///     }
///
///     func loaded(resolver: any Resolver) throws {
///         try resolver.resolve(HTTPClient.self).warmUp()
///     }
/// }
///
/// try app.apply(CoreAssembly(), NetworkAssembly())
/// ```
///
/// `Container.apply(_:)` runs every assembly's `assemble(into:)` first, in order, then every `loaded(resolver:)`,
/// so an assembly's `loaded` may resolve services that a later assembly registers. The shape follows
/// Swinject's `Assembly` and `Assembler`.
///
/// What `assemble(into:)` registers in `container` is held back until every assembly of the `apply` has
/// assembled, then applied all at once; if any `assemble(into:)` throws, none of it is applied. Two
/// consequences: `container` does not resolve (or report as registered) what the running `apply` registers
/// until `loaded(resolver:)`, so resolve there; and a conflict (`overridable: false`) still throws at once,
/// from the `register` call inside `assemble(into:)` that caused it.
///
/// An assembly is `Sendable`: it is usually a stateless struct, and `apply` keeps it until its `loaded`
/// hook has run.
public protocol Assembly: Sendable {
    /// Registers this module's services in `container`.
    ///
    /// Register in `container` (or in children you create from it); keep the `try` of every `register`
    /// so that a refused registration stops the `apply`. Do not resolve here: the registrations of this
    /// `apply` become visible only after every assembly has assembled.
    ///
    /// - Parameter container: The container `apply(_:)` was called on.
    /// - Throws: Any error; `apply(_:)` then applies nothing and throws `RegistrationError`
    ///   (`assemblyFailed`) with this error as `underlying`.
    func assemble(into container: Container) throws

    /// Called after every assembly of the same `apply(_:)` has assembled and their registrations are in
    /// place; resolve, warm caches or check configuration here. Does nothing by default.
    ///
    /// - Parameter resolver: The container `apply(_:)` was called on.
    /// - Throws: Any error; `apply(_:)` stops calling `loaded` hooks and throws `RegistrationError`
    ///   (`assemblyFailed`). The registrations stay applied.
    func loaded(resolver: any Resolver) throws
}

extension Assembly {
    /// Does nothing; implement it to act once every assembly of the `apply` is in place.
    public func loaded(resolver: any Resolver) throws {}
}
