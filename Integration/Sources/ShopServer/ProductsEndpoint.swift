import DICore
import DIPropertyWrappers
import ShopCore

// Made inside the request's handler, where the middleware has bound the request container as
// `Container.current`, so its property wrappers resolve from that request.

/// `GET /products`.
struct ProductsEndpoint {
    @Inject var catalog: any ProductCatalog

    func respond() async throws -> [Product] {
        try await ShopHandlers.products(catalog: catalog)
    }
}
