import DICore
import DIPropertyWrappers
import ShopCore

// Made inside the request's handler, where the middleware has bound the request container as
// `Container.current`, so its property wrappers resolve from that request.

/// `GET /products`.
package struct ProductsEndpoint {
    @Inject package var catalog: any ProductCatalog

    package init() {}

    package func respond() async throws -> [Product] {
        try await ShopHandlers.products(catalog: catalog)
    }
}
