import DICore
import DIPropertyWrappers
import DIScopes
import ShopCore

// Made inside the request's handler, where the middleware has bound the request container as
// `Container.current`, so its property wrappers resolve from that request.

/// `POST /cart/items`: the cart is the request's (`.matching("session")`), and so is the unit of work.
package struct CartItemsEndpoint {
    @Inject package var catalog: any ProductCatalog
    @Inject package var cart: any ShoppingCart
    @Inject package var work: UnitOfWork

    package init() {}

    package func respond(to item: ShopHandlers.AddItem) async throws -> ShopHandlers.ItemAdded {
        try await ShopHandlers.addItem(item, catalog: catalog, cart: cart, work: work)
    }
}
