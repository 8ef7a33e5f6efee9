import DICore
import DIPropertyWrappers
import ShopCore

/// The ``CheckoutService`` of the shop. Its gateway is passed in (it comes from an `async` factory); the
/// rest is injected by property wrappers from the container that builds it.
///
/// ```swift
/// let checkout = try await container.resolveAsync((any CheckoutService).self)
/// let order = try await checkout.placeOrder(for: "alice", lines: cart.lines)
/// ```
///
/// Inside a factory, `@Inject` resolves from the container that factory's dependencies come from, so the
/// wrappers follow the same lifetime rules as the factory's `Resolver`.
public struct OrderCheckout: CheckoutService {
    @Inject private var orders: any OrderStore
    @Inject private var logger: any ShopLogger
    @Injected(\.clock) private var clock
    private let gateway: any PaymentGateway

    /// Makes the service; call it where `Container.current` is the container to inject from.
    ///
    /// - Parameter gateway: Charges the customer.
    public init(gateway: any PaymentGateway) {
        self.gateway = gateway
    }

    /// Charges the lines' total, shipping included, and stores the order.
    ///
    /// - Parameters:
    ///   - user: Who orders.
    ///   - lines: What is ordered; not empty.
    /// - Returns: The stored order.
    /// - Throws: ``ShopError`` when `lines` is empty or the payment is declined.
    public func placeOrder(for user: String, lines: [CartLine]) async throws -> Order {
        try await Order.place(
            for: user, lines: lines, gateway: gateway, orders: orders, logger: logger, clock: clock
        )
    }
}
