/// The cart of one signed-in user: implemented by the `Cart` feature, one per `session`-tagged container.
///
/// ```swift
/// let cart = try session.resolve((any ShoppingCart).self)
/// cart.add(cup, quantity: 2)
/// cart.totalCents        // shipping included
/// ```
public protocol ShoppingCart: Sendable {
    /// The user whose cart this is.
    var user: String { get }

    /// What is in the cart, in the order it was first added.
    var lines: [CartLine] { get }

    /// What the cart costs, shipping included, in cents.
    var totalCents: Int { get }

    /// Adds `quantity` units of `product`, to its line if the product is already in the cart.
    ///
    /// - Parameters:
    ///   - product: The product.
    ///   - quantity: How many units; at least 1.
    /// - Throws: ``ShopError`` when `quantity` is less than 1.
    func add(_ product: Product, quantity: Int) throws

    /// Empties the cart, after an order was placed.
    func clear()
}
