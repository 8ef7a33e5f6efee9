import ShopCore

/// The ``ShoppingCart`` of one session: its lines live in the app-wide ``CartStore`` under the session's
/// user.
///
/// ```swift
/// let cart = SessionCart(session: UserSession(user: "alice"), store: CartStore(), pricing: CartPricing())
/// try cart.add(cup, quantity: 2)
/// ```
public final class SessionCart: ShoppingCart {
    private let session: UserSession
    private let store: CartStore
    private let pricing: CartPricing

    /// Makes the cart of `session`'s user.
    ///
    /// - Parameters:
    ///   - session: The signed-in user.
    ///   - store: Where the lines are kept.
    ///   - pricing: How the total is computed.
    public init(session: UserSession, store: CartStore, pricing: CartPricing) {
        self.session = session
        self.store = store
        self.pricing = pricing
    }

    /// The session's user.
    public var user: String { session.user }

    /// The lines, in the order they were first added.
    public var lines: [CartLine] { store.lines(of: session.user) }

    /// The total with shipping, in cents.
    public var totalCents: Int { pricing.totalCents(of: lines) }

    /// Adds `quantity` units of `product`.
    ///
    /// - Parameters:
    ///   - product: The product.
    ///   - quantity: How many units; at least 1.
    /// - Throws: ``ShopError`` when `quantity` is less than 1.
    public func add(_ product: Product, quantity: Int) throws {
        guard quantity > 0 else {
            throw ShopError("Cannot add \(quantity) × \(product.name) to the cart: the quantity must be at least 1.")
        }
        store.update(session.user) { lines in
            if let index = lines.firstIndex(where: { $0.product.id == product.id }) {
                lines[index].quantity += quantity
            } else {
                lines.append(CartLine(product: product, quantity: quantity))
            }
        }
    }

    /// Empties the cart.
    public func clear() {
        store.update(session.user) { $0.removeAll() }
    }
}
