import Hummingbird
import ShopCore

/// What the endpoints do, with every service passed in: the container server and the hand-wired server call
/// the same functions and differ only in how they obtain the services.
///
/// ```swift
/// router.get("/products") { _, _ in
///     try await ShopHandlers.products(catalog: Container.current.resolve((any ProductCatalog).self))
/// }
/// ```
///
/// A ``ShopError`` from a feature becomes `422 Unprocessable Content` with its sentence as the message.
public enum ShopHandlers {
    /// The body of `POST /cart/items`.
    public struct AddItem: Codable, Sendable {
        /// The product's ID, as `GET /products` lists it.
        public var productID: String
        /// How many units; at least 1.
        public var quantity: Int

        /// Makes the body.
        ///
        /// - Parameters:
        ///   - productID: The product's ID.
        ///   - quantity: How many units.
        public init(productID: String, quantity: Int) {
            self.productID = productID
            self.quantity = quantity
        }
    }

    /// The answer of `POST /cart/items`.
    public struct ItemAdded: ResponseCodable, Sendable {
        /// Whose cart.
        public var user: String
        /// What was added.
        public var productID: String
        /// How many units were added.
        public var quantity: Int
        /// The request that added it, whose unit of work commits the change.
        public var requestID: String
    }

    /// The answer of `POST /checkout`.
    public struct Receipt: ResponseCodable, Sendable {
        /// The order's ID.
        public var orderID: String
        /// Who ordered.
        public var user: String
        /// How many lines the order has.
        public var lines: Int
        /// The total with shipping, in cents.
        public var totalCents: Int
        /// The payment provider's ID of the charge.
        public var paymentID: String
    }

    /// The answer of `GET /health`.
    public struct Health: ResponseCodable, Sendable {
        /// `ok`.
        public var status: String
        /// How the units of work ended so far.
        public var unitsOfWork: UnitOfWorkJournal.Counts
    }

    /// `GET /products`: every product.
    ///
    /// - Parameter catalog: The catalog.
    /// - Returns: The products.
    /// - Throws: `HTTPError` 422 when the inventory cannot be read.
    public static func products(catalog: any ProductCatalog) async throws -> [Product] {
        try await mappingShopErrors { try await catalog.products() }
    }

    /// `POST /cart/items`: adds a product to the user's cart when the request's unit of work commits.
    ///
    /// - Parameters:
    ///   - item: What to add.
    ///   - catalog: Where the product is looked up.
    ///   - cart: The user's cart.
    ///   - work: The request's unit of work.
    /// - Returns: What was added.
    /// - Throws: `HTTPError` 422 for an unknown product or a quantity below 1.
    public static func addItem(
        _ item: AddItem, catalog: any ProductCatalog, cart: any ShoppingCart, work: UnitOfWork
    ) async throws -> ItemAdded {
        guard item.quantity > 0 else {
            throw HTTPError(.unprocessableContent, message: "The quantity must be at least 1, not \(item.quantity).")
        }
        let product = try await mappingShopErrors { try await catalog.product(id: item.productID) }
        work.enlist { try? cart.add(product, quantity: item.quantity) }
        work.complete()
        return ItemAdded(user: cart.user, productID: product.id, quantity: item.quantity, requestID: work.requestID)
    }

    /// `POST /checkout`: pays for the user's cart, and empties it when the request's unit of work commits.
    ///
    /// - Parameters:
    ///   - cart: The user's cart.
    ///   - checkout: Places the order.
    ///   - work: The request's unit of work.
    /// - Returns: The receipt.
    /// - Throws: `HTTPError` 409 when the cart is empty, 422 when the payment is declined.
    public static func checkout(
        cart: any ShoppingCart, checkout: any CheckoutService, work: UnitOfWork
    ) async throws -> Receipt {
        let lines = cart.lines
        guard !lines.isEmpty else {
            throw HTTPError(.conflict, message: "\(cart.user)'s cart is empty: POST /cart/items first.")
        }
        let order = try await mappingShopErrors { try await checkout.placeOrder(for: cart.user, lines: lines) }
        work.enlist { cart.clear() }
        work.complete()
        return Receipt(
            orderID: order.id, user: order.user, lines: order.lines.count, totalCents: order.totalCents,
            paymentID: order.paymentID
        )
    }

    /// `GET /health`: `ok` and the units of work so far.
    ///
    /// - Parameter journal: The journal of units of work.
    /// - Returns: The health.
    public static func health(journal: UnitOfWorkJournal) -> Health {
        Health(status: "ok", unitsOfWork: journal.counts)
    }

    private static func mappingShopErrors<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as ShopError {
            throw HTTPError(.unprocessableContent, message: error.description)
        }
    }
}
