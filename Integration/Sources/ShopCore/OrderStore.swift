/// Keeps placed orders.
///
/// ```swift
/// let orders = try app.resolve((any OrderStore).self)
/// let number = orders.nextOrderID()
/// orders.save(order)
/// ```
public protocol OrderStore: Sendable {
    /// Hands out the next order number: `order-1`, `order-2`, …, never the same twice.
    ///
    /// - Returns: The order number.
    func nextOrderID() -> String

    /// Keeps `order`, replacing an order with the same ID.
    ///
    /// - Parameter order: The order.
    func save(_ order: Order)

    /// Every order of `user`, oldest first.
    ///
    /// - Parameter user: The user's name.
    /// - Returns: The orders.
    func orders(of user: String) -> [Order]
}
