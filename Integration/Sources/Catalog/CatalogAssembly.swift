import DICore
import ShopCore

/// The catalog feature's registrations, applied to its own child container (`catalog`).
///
/// Needs only `DICore`: a singleton ``RemoteCatalog`` behind `any ProductCatalog`, and the transient
/// ``ProductListing`` screen model. Both use `autoregister`, so diagnostics know their dependencies without
/// building anything.
///
/// ```swift
/// let catalog = app.child(name: "catalog")
/// try catalog.apply(CatalogAssembly())
/// let listing = try catalog.resolve(ProductListing.self)
/// ```
public struct CatalogAssembly: Assembly {
    /// Makes the assembly.
    public init() {}

    /// Registers the catalog and its screen model.
    ///
    /// - Parameter container: The feature's container; its ancestors provide `any HTTPClient` and
    ///   `any ShopLogger`.
    /// - Throws: `RegistrationError` when a registration is refused.
    public func assemble(into container: Container) throws {
        try container.autoregister((any ProductCatalog).self, scope: .singleton) {
            (http: any HTTPClient, logger: any ShopLogger) in RemoteCatalog(http: http, logger: logger)
        }
        try container.autoregister(ProductListing.self, initializer: ProductListing.init)
    }
}
