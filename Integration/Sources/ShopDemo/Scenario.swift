import Cart
import Catalog
import DIToolkit
import ShopApp
import ShopCore

/// The checkout scenario: browse, add to cart, pay, each step printed with what it resolved.
struct Scenario {
    let shop: ShopApp
    let log: ResolutionLog

    /// Runs the steps; returns the session container, which the caller keeps alive to show it in the tree.
    func run() async throws -> Container {
        Console.section("1. Browse the catalog")
        print("  let listing = try catalog.resolve(ProductListing.self)")
        let listing = try shop.catalog.resolve(ProductListing.self)
        let lines = try await listing.lines()
        Console.resolutions(log.drain())
        print("  ProductCatalog is a singleton of catalog; the logger and HTTP client it needs are app's.")
        for line in lines { print("    · \(line)") }

        Console.section("2. Add to the cart")
        print("  let session = try shop.makeSession(user: \"alice\")      // a child of cart, tagged \"session\"")
        print("  let cart = try session.resolve((any ShoppingCart).self)")
        let session = try shop.makeSession(user: "alice")
        let cart = try session.resolve((any ShoppingCart).self)
        try cart.add(try await listing.catalog.product(id: "espresso-beans"), quantity: 1)
        try cart.add(try await listing.catalog.product(id: "cup"), quantity: 2)
        print("  let again = try session.child(name: \"cart screen\").resolve((any ShoppingCart).self)")
        let again = try session.child(name: "cart screen").resolve((any ShoppingCart).self)
        Console.resolutions(log.drain())
        print("  The cart is matching(\"session\"): session alice keeps it, so its child gets the same one")
        let same = again as AnyObject === cart as AnyObject
        print("  (same instance: \(same)). Pricing is scoped: one per asking container.")
        for line in cart.lines {
            print("    · \(line.quantity) × \(line.product.name)  \(formatCents(line.totalCents))")
        }
        print("    total with shipping: \(formatCents(cart.totalCents))")

        Console.section("3. Pay")
        print("  let checkout = try await checkout.resolveAsync((any CheckoutService).self)")
        let checkout = try await shop.checkout.resolveAsync((any CheckoutService).self)
        let order = try await checkout.placeOrder(for: cart.user, lines: cart.lines)
        cart.clear()
        Console.resolutions(log.drain())
        print("  PaymentGateway has an async factory (it opens a payment session) and is built once;")
        print("  \\.paymentConfiguration is required by Checkout and provided by the app; OrderCheckout's")
        print("  @Inject and @Injected properties resolved the order store, the logger and \\.clock.")
        print("    · \(order.id) paid: \(formatCents(order.totalCents)), payment \(order.paymentID)")
        return session
    }
}
