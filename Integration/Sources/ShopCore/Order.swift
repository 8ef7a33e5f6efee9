/// A paid order, as the ``OrderStore`` keeps it.
///
/// ```swift
/// let order = try await checkout.placeOrder(for: "alice", lines: cart.lines)
/// print(order.id, order.totalCents)
/// ```
public struct Order: Sendable, Hashable, Codable {
    /// The order number: `order-1`, `order-2`, …
    public let id: String
    /// Who ordered.
    public let user: String
    /// What was ordered.
    public let lines: [CartLine]
    /// What was charged, shipping included, in cents.
    public let totalCents: Int
    /// The payment provider's reference for the charge.
    public let paymentID: String
    /// When the order was placed, in seconds since 1970-01-01 00:00 UTC.
    public let placedAt: Int

    /// Makes an order.
    ///
    /// - Parameters:
    ///   - id: The order number.
    ///   - user: Who ordered.
    ///   - lines: What was ordered.
    ///   - totalCents: What was charged, in cents.
    ///   - paymentID: The payment provider's reference.
    ///   - placedAt: When, in seconds since 1970-01-01 00:00 UTC.
    public init(id: String, user: String, lines: [CartLine], totalCents: Int, paymentID: String, placedAt: Int) {
        self.id = id
        self.user = user
        self.lines = lines
        self.totalCents = totalCents
        self.paymentID = paymentID
        self.placedAt = placedAt
    }
}
