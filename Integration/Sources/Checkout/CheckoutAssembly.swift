import DICore
import ShopCore

/// The checkout feature's registrations, applied to its own child container (`checkout`).
///
/// The gateway has an `async` factory (it opens a session with the payment provider) and is a singleton of
/// `checkout`; the service is `async` because it needs the gateway, and transient unless the app asks for
/// another lifetime (a server keeps one: it is stateless). The merchant account comes from the required
/// `\.paymentConfiguration` key, which the app provides.
///
/// ```swift
/// let checkout = app.child(name: "checkout")
/// try checkout.apply(CheckoutAssembly())
/// let service = try await checkout.resolveAsync((any CheckoutService).self)
/// ```
public struct CheckoutAssembly: Assembly {
    /// The lifetime of the checkout service.
    public let checkoutScope: Scope

    /// Makes the assembly.
    ///
    /// - Parameter checkoutScope: The lifetime of the checkout service: `.transient` (one per checkout) by
    ///   default; `.singleton` to share one, as a server does.
    public init(checkoutScope: Scope = .transient) {
        self.checkoutScope = checkoutScope
    }

    /// Registers the gateway and the checkout service.
    ///
    /// - Parameter container: The feature's container; its ancestors provide `any HTTPClient`,
    ///   `any ShopLogger`, `any OrderStore` and `\.paymentConfiguration`.
    /// - Throws: `RegistrationError` when a registration is refused.
    public func assemble(into container: Container) throws {
        try container.registerAsync((any PaymentGateway).self, scope: .singleton) { r in
            try await CardGateway.connect(
                http: try r.resolve((any HTTPClient).self),
                configuration: try r.resolve(\.paymentConfiguration),
                logger: try r.resolve((any ShopLogger).self)
            )
        }
        try container.registerAsync((any CheckoutService).self, scope: checkoutScope) { r in
            OrderCheckout(gateway: try await r.resolveAsync((any PaymentGateway).self))
        }
    }
}
