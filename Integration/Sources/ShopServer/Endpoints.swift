import DICore
import DIPropertyWrappers
import DIScopes
import ShopCore

// The container server's endpoints: each is made inside the request's handler, where the middleware has
// bound the request container as `Container.current`, so its property wrappers resolve from that request.

/// `GET /products`.
struct ProductsEndpoint {
    @Inject var catalog: any ProductCatalog

    func respond() async throws -> [Product] {
        try await ShopHandlers.products(catalog: catalog)
    }
}

/// `POST /cart/items`: the cart is the request's (`.matching("session")`), and so is the unit of work.
struct CartItemsEndpoint {
    @Inject var catalog: any ProductCatalog
    @Inject var cart: any ShoppingCart
    @Inject var work: UnitOfWork

    func respond(to item: ShopHandlers.AddItem) async throws -> ShopHandlers.ItemAdded {
        try await ShopHandlers.addItem(item, catalog: catalog, cart: cart, work: work)
    }
}

/// `POST /checkout`: the checkout service has an `async` factory, so it is resolved with `resolveAsync`.
struct CheckoutEndpoint {
    @Inject var cart: any ShoppingCart
    @Inject var work: UnitOfWork

    func respond() async throws -> ShopHandlers.Receipt {
        let checkout = try await Container.current.resolveAsync((any CheckoutService).self)
        return try await ShopHandlers.checkout(cart: cart, checkout: checkout, work: work)
    }
}

/// `GET /health`: the journal is resolved on first read.
struct HealthEndpoint {
    @LazyInject var journal: UnitOfWorkJournal

    func respond() -> ShopHandlers.Health {
        ShopHandlers.health(journal: journal)
    }
}
