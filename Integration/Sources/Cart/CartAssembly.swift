import DICore
import DIScopes
import ShopCore

/// The cart feature's registrations, applied to its own child container (`cart`).
///
/// Uses `DIScopes`: the cart itself is `.matching("session")` — one per `session`-tagged container below
/// `cart`, built with that session's ``UserSession`` — and its pricing rules are `.scoped` by default, one per
/// asking container. The ``CartStore`` behind every cart is a singleton of `cart`, and `cart` registers the
/// guest user that each session container overrides with its own.
///
/// ```swift
/// let cart = app.child(name: "cart")
/// try cart.apply(CartAssembly())
/// let session = try CartAssembly.makeSession(user: "alice", below: cart)
/// let aliceCart = try session.resolve((any ShoppingCart).self)
/// ```
public struct CartAssembly: Assembly {
    /// The tag of the containers that hold one cart each.
    public static let sessionTag = "session"

    /// The lifetime of the pricing rules.
    public let pricingScope: Scope

    /// Makes the assembly.
    ///
    /// - Parameter pricingScope: The lifetime of the pricing rules: `.scoped` (one per asking container, so a
    ///   session keeps its own) by default; `.singleton` to share one, as a server does (its sessions are
    ///   requests, and the rules are stateless).
    public init(pricingScope: Scope = .scoped) {
        self.pricingScope = pricingScope
    }

    /// Makes the container of one user's session below `cart`: tagged `session` (so it keeps that user's
    /// cart), with the user's ``UserSession`` registered in it. Close it when the session ends.
    ///
    /// ```swift
    /// let session = try CartAssembly.makeSession(user: "alice", below: cart)
    /// let aliceCart = try session.resolve((any ShoppingCart).self)
    /// ```
    ///
    /// - Parameters:
    ///   - user: The signed-in user.
    ///   - cart: The container this assembly was applied to, or a descendant (a test container of it).
    ///   - tags: More tags, such as `request` on a server; `session` is always added.
    /// - Returns: The session container.
    /// - Throws: `RegistrationError` when `cart` is closed.
    public static func makeSession(user: String, below cart: Container, tags: Set<String> = []) throws -> Container {
        let session = cart.child(name: "session \(user)", tags: tags.union([sessionTag]))
        try session.autoregister(UserSession.self, scope: .singleton) { UserSession(user: user) }
        return session
    }

    /// Registers the store, the pricing rules and the per-session cart.
    ///
    /// - Parameter container: The feature's container; each session container below it registers its
    ///   ``UserSession``.
    /// - Throws: `RegistrationError` when a registration is refused.
    public func assemble(into container: Container) throws {
        try container.autoregister(CartStore.self, scope: .singleton, initializer: CartStore.init)
        // Until someone signs in, the cart belongs to a guest; each session container registers its user,
        // and a session's cart takes its dependencies from the session container, so it gets that user.
        try container.autoregister(UserSession.self, scope: .singleton) { UserSession.guest }
        try container.autoregister(CartPricing.self, scope: pricingScope, initializer: CartPricing.init)
        try container.autoregister((any ShoppingCart).self, scope: .matching(Self.sessionTag)) {
            (session: UserSession, store: CartStore, pricing: CartPricing) in
            SessionCart(session: session, store: store, pricing: pricing)
        }
    }
}
