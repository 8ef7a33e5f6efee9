import ShopCore

/// Prices a cart: subtotal, shipping and total. One per asking container (`.scoped`), so a session
/// container keeps its own.
///
/// ```swift
/// let pricing = CartPricing()
/// pricing.totalCents(of: [CartLine(product: cup, quantity: 2)])     // 2_400 + 490 shipping
/// ```
public final class CartPricing: Sendable {
    /// Makes the pricing rules.
    public init() {}

    /// The lines' total without shipping, in cents.
    ///
    /// - Parameter lines: The cart's lines.
    /// - Returns: The subtotal.
    public func subtotalCents(of lines: [CartLine]) -> Int {
        lines.reduce(0) { $0 + $1.totalCents }
    }

    /// The lines' total with shipping, in cents.
    ///
    /// - Parameter lines: The cart's lines.
    /// - Returns: The total.
    public func totalCents(of lines: [CartLine]) -> Int {
        let subtotal = subtotalCents(of: lines)
        return subtotal + Shipping.costCents(forSubtotal: subtotal)
    }
}
