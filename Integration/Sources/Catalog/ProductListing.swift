import ShopCore

/// The catalog screen's model: the products as lines to show, built anew for every screen (transient).
///
/// ```swift
/// let listing = try catalog.resolve(ProductListing.self)
/// for line in try await listing.lines() { print(line) }
/// ```
public struct ProductListing: Sendable {
    /// Where the products come from.
    public let catalog: any ProductCatalog

    /// Makes the screen model.
    ///
    /// - Parameter catalog: Where the products come from.
    public init(catalog: any ProductCatalog) {
        self.catalog = catalog
    }

    /// One line per product: name and price.
    ///
    /// - Returns: The lines, in inventory order.
    /// - Throws: ``ShopError`` when the inventory cannot be read.
    public func lines() async throws -> [String] {
        try await catalog.products().map { "\($0.name) — \(formatCents($0.priceCents))" }
    }
}
