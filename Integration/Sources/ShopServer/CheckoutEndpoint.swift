import DICore
import DIPropertyWrappers
import DIScopes
import ShopCore

// Made inside the request's handler, where the middleware has bound the request container as
// `Container.current`, so its property wrappers resolve from that request.

/// `POST /checkout`: the checkout service has an `async` factory, so it is resolved with `resolveAsync`.
package struct CheckoutEndpoint {
    @Inject package var cart: any ShoppingCart
    @Inject package var work: UnitOfWork

    package init() {}

    package func respond() async throws -> ShopHandlers.Receipt {
        let checkout = try await Container.current.resolveAsync((any CheckoutService).self)
        return try await ShopHandlers.checkout(cart: cart, checkout: checkout, work: work)
    }
}
