extension Order {
    /// Places an order: charges the lines' total, shipping included, stores the order and logs it — the one
    /// checkout rule, whether its collaborators are injected (`OrderCheckout`) or passed by hand.
    ///
    /// ```swift
    /// let order = try await Order.place(
    ///     for: "ada", lines: cart.lines, gateway: gateway, orders: orders, logger: logger, clock: clock
    /// )
    /// ```
    ///
    /// - Parameters:
    ///   - user: Who orders.
    ///   - lines: What is ordered; not empty.
    ///   - gateway: Charges the customer.
    ///   - orders: Hands out the order number and keeps the order.
    ///   - logger: Where the order is logged.
    ///   - clock: When the order is placed.
    /// - Returns: The stored order.
    /// - Throws: ``ShopError`` when `lines` is empty or the payment is declined.
    public static func place(
        for user: String,
        lines: [CartLine],
        gateway: any PaymentGateway,
        orders: any OrderStore,
        logger: any ShopLogger,
        clock: any ShopClock
    ) async throws -> Order {
        guard !lines.isEmpty else {
            throw ShopError("\(user)'s cart is empty: add a product (POST /cart/items) before checking out.")
        }
        let subtotal = lines.reduce(0) { $0 + $1.totalCents }
        let total = subtotal + Shipping.costCents(forSubtotal: subtotal)
        let id = orders.nextOrderID()
        let paymentID = try await gateway.charge(cents: total, reference: id)
        let order = Order(
            id: id, user: user, lines: lines, totalCents: total, paymentID: paymentID, placedAt: clock.now
        )
        orders.save(order)
        logger.log("checkout: \(id) placed for \(user)")
        return order
    }
}
