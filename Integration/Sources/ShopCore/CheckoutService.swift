/// Turns a cart into a paid order: implemented by the `Checkout` feature.
///
/// ```swift
/// let checkout = try await container.resolveAsync((any CheckoutService).self)
/// let order = try await checkout.placeOrder(for: "alice", lines: cart.lines)
/// ```
public protocol CheckoutService: Sendable {
    /// Charges the lines' total, shipping included, and stores the order.
    ///
    /// - Parameters:
    ///   - user: Who orders.
    ///   - lines: What is ordered; not empty.
    /// - Returns: The stored order.
    /// - Throws: ``ShopError`` when there is nothing to order or the payment is declined.
    func placeOrder(for user: String, lines: [CartLine]) async throws -> Order
}
