import ShopCore

/// The checkout of the hand-wired server: what `OrderCheckout` does, with every dependency passed in, since
/// `OrderCheckout` injects its store, logger and clock from a container.
///
/// ```swift
/// let checkout = PlainCheckout(gateway: gateway, orders: orders, logger: logger, clock: SystemClock())
/// let order = try await checkout.placeOrder(for: "ada", lines: cart.lines)
/// ```
public struct PlainCheckout: CheckoutService {
    private let gateway: any PaymentGateway
    private let orders: any OrderStore
    private let logger: any ShopLogger
    private let clock: any ShopClock

    /// Makes the service.
    ///
    /// - Parameters:
    ///   - gateway: Charges the customer.
    ///   - orders: Keeps the orders.
    ///   - logger: Where orders are logged.
    ///   - clock: When an order is placed.
    public init(gateway: any PaymentGateway, orders: any OrderStore, logger: any ShopLogger, clock: any ShopClock) {
        self.gateway = gateway
        self.orders = orders
        self.logger = logger
        self.clock = clock
    }

    /// Charges the lines' total, shipping included, and stores the order.
    ///
    /// - Parameters:
    ///   - user: Who orders.
    ///   - lines: What is ordered; not empty.
    /// - Returns: The stored order.
    /// - Throws: `ShopError` when `lines` is empty or the payment is declined.
    public func placeOrder(for user: String, lines: [CartLine]) async throws -> Order {
        try await Order.place(
            for: user, lines: lines, gateway: gateway, orders: orders, logger: logger, clock: clock
        )
    }
}
