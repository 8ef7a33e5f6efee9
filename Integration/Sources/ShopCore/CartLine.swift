/// One product and how many of it, in a cart or an order.
///
/// ```swift
/// let line = CartLine(product: cup, quantity: 2)
/// line.totalCents      // 2_400
/// ```
public struct CartLine: Sendable, Hashable, Codable {
    /// The product.
    public let product: Product
    /// How many units.
    public var quantity: Int

    /// The line's price: unit price times quantity, in cents.
    public var totalCents: Int { product.priceCents * quantity }

    /// Makes a line.
    ///
    /// - Parameters:
    ///   - product: The product.
    ///   - quantity: How many units.
    public init(product: Product, quantity: Int) {
        self.product = product
        self.quantity = quantity
    }
}
