/// What the shop sells: implemented by the `Catalog` feature, used by every feature that shows products.
///
/// ```swift
/// let catalog = try container.resolve((any ProductCatalog).self)
/// let products = try await catalog.products()
/// ```
public protocol ProductCatalog: Sendable {
    /// Every product, in the order the inventory lists them.
    ///
    /// - Returns: The products.
    /// - Throws: ``ShopError`` when the inventory cannot be read.
    func products() async throws -> [Product]

    /// The product with `id`.
    ///
    /// - Parameter id: The product's identifier.
    /// - Returns: The product.
    /// - Throws: ``ShopError`` when no product has that identifier.
    func product(id: String) async throws -> Product
}
