/// Something the shop sells.
///
/// ```swift
/// let cup = Product(id: "cup", name: "Ceramic cup", priceCents: 1_200)
/// ```
public struct Product: Sendable, Hashable, Codable {
    /// The stable identifier, used in URLs and carts.
    public let id: String
    /// The name shown to customers.
    public let name: String
    /// The price of one unit, in cents.
    public let priceCents: Int

    /// Makes a product.
    ///
    /// - Parameters:
    ///   - id: The stable identifier.
    ///   - name: The name shown to customers.
    ///   - priceCents: The price of one unit, in cents.
    public init(id: String, name: String, priceCents: Int) {
        self.id = id
        self.name = name
        self.priceCents = priceCents
    }
}
