import DICore
import DIScopes
import ShopCore

/// The cart feature's registrations, applied to its own child container (`cart`).
///
/// Uses `DIScopes`: the cart itself is `.matching("session")` — one per `session`-tagged container below
/// `cart`, built with that session's ``UserSession`` — and its pricing rules are `.scoped`, one per asking
/// container. The ``CartStore`` behind every cart is a singleton of `cart`.
///
/// ```swift
/// let cart = app.child(name: "cart")
/// try cart.apply(CartAssembly())
/// let session = cart.child(name: "session alice", tags: ["session"])
/// try session.autoregister(UserSession.self) { UserSession(user: "alice") }
/// let aliceCart = try session.resolve((any ShoppingCart).self)
/// ```
public struct CartAssembly: Assembly {
    /// The tag of the containers that hold one cart each.
    public static let sessionTag = "session"

    /// Makes the assembly.
    public init() {}

    /// Registers the store, the pricing rules and the per-session cart.
    ///
    /// - Parameter container: The feature's container; each session container below it registers its
    ///   ``UserSession``.
    /// - Throws: `RegistrationError` when a registration is refused.
    public func assemble(into container: Container) throws {
        try container.autoregister(CartStore.self, scope: .singleton, initializer: CartStore.init)
        try container.autoregister(CartPricing.self, scope: .scoped, initializer: CartPricing.init)
        try container.autoregister((any ShoppingCart).self, scope: .matching(Self.sessionTag)) {
            (session: UserSession, store: CartStore, pricing: CartPricing) in
            SessionCart(session: session, store: store, pricing: pricing)
        }
    }
}
