// The one entry that builds the shop's container tree from the feature assemblies; the demo, the tests and
// the sample server all start here.
//
// How a server uses it: build one `ShopApp` at start-up and keep it for the process's lifetime (validate
// `app` then, and `close()` it at shutdown so singletons are disposed). For each request, make a child of the
// feature container that serves the route — `shop.checkout.child(name: "request", tags: ["request"])`, or
// `shop.makeSession(user:)` for the cart, which is a `session`-tagged child of `cart` — register the
// request's own values in that child, resolve the handler's services from it, and close it when the
// response is sent. Every service registered here is `Sendable` and keeps shared state behind a `Mutex`,
// so concurrent requests can share the app's singletons.
import Cart
import Catalog
import Checkout
import DICore
import ShopCore

/// The shop's container tree: the app container with the shared services, and one child per feature,
/// each assembled by its feature's assembly.
///
/// ```text
/// app        ShopCoreAssembly: logger, HTTP client, order store; \.paymentConfiguration
/// ├── catalog   CatalogAssembly: product catalog, product listing
/// ├── cart      CartAssembly: cart store, pricing, one cart per "session"-tagged child
/// └── checkout  CheckoutAssembly: payment gateway (async), checkout service (async)
/// ```
///
/// ```swift
/// let shop = try ShopApp.makeContainer()
/// let listing = try shop.catalog.resolve(ProductListing.self)
/// let session = try shop.makeSession(user: "alice")
/// try session.resolve((any ShoppingCart).self).add(product, quantity: 1)
/// ```
public struct ShopApp: Sendable {
    /// The root: what every feature shares.
    public let app: Container
    /// The catalog feature's container, a child of ``app``.
    public let catalog: Container
    /// The cart feature's container, a child of ``app``; sessions are its children.
    public let cart: Container
    /// The checkout feature's container, a child of ``app``.
    public let checkout: Container

    /// The merchant account the app provides for `\.paymentConfiguration` unless told otherwise.
    public static let defaultMerchantID = "coffee-shop"

    /// Builds the container tree: `app` with ``ShopCoreAssembly`` and the payment configuration, then one
    /// child per feature with its assembly.
    ///
    /// ```swift
    /// let shop = try ShopApp.makeContainer(logger: RecordingLogger())
    /// ```
    ///
    /// - Parameters:
    ///   - logger: The logger every service writes to.
    ///   - http: How the features reach the back end; the in-memory shop back end by default.
    ///   - merchantID: The merchant account the app provides for `\.paymentConfiguration`.
    /// - Returns: The tree.
    /// - Throws: `RegistrationError` when an assembly's registration is refused.
    public static func makeContainer(
        logger: any ShopLogger = PrintLogger(),
        http: any HTTPClient = InMemoryHTTPClient.shopBackend(),
        merchantID: String = defaultMerchantID
    ) throws -> ShopApp {
        let app = Container(name: "app")
        try app.apply(ShopCoreAssembly(logger: logger, http: http))
        // The checkout feature declares this key `.required()`: only the app knows its merchant account.
        try app.register(\.paymentConfiguration) { _ in PaymentConfiguration(merchantID: merchantID) }

        let catalog = app.child(name: "catalog")
        try catalog.apply(CatalogAssembly())
        let cart = app.child(name: "cart")
        try cart.apply(CartAssembly())
        let checkout = app.child(name: "checkout")
        try checkout.apply(CheckoutAssembly())
        return ShopApp(app: app, catalog: catalog, cart: cart, checkout: checkout)
    }

    /// Makes the container of one user's session: a child of ``cart`` tagged `session`, which keeps that
    /// user's cart. Close it when the session (or the request) ends.
    ///
    /// ```swift
    /// let session = try shop.makeSession(user: "alice")
    /// let cart = try session.resolve((any ShoppingCart).self)
    /// ```
    ///
    /// - Parameters:
    ///   - user: The signed-in user.
    ///   - tags: More tags for the container, such as `request` on a server; `session` is always added.
    /// - Returns: The session container.
    /// - Throws: `RegistrationError` when ``cart`` is closed.
    public func makeSession(user: String, tags: Set<String> = []) throws -> Container {
        try CartAssembly.makeSession(user: user, below: cart, tags: tags)
    }

    /// Closes the whole tree: sessions and features first, then the app, disposing what they hold.
    ///
    /// ```swift
    /// shop.close()      // at shutdown
    /// ```
    public func close() {
        app.close()
    }
}
