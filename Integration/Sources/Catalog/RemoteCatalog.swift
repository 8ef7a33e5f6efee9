import Foundation
import ShopCore
import Synchronization

/// The ``ProductCatalog`` of the shop: reads the inventory from the back end once, then answers from memory.
///
/// ```swift
/// let catalog = RemoteCatalog(http: InMemoryHTTPClient.shopBackend(), logger: RecordingLogger())
/// let products = try await catalog.products()
/// ```
///
/// Concurrent first calls may each read the inventory; the first answer is kept.
public final class RemoteCatalog: ProductCatalog {
    private let http: any HTTPClient
    private let logger: any ShopLogger
    private let loaded = Mutex<[Product]?>(nil)

    /// Makes a catalog that reads the inventory through `http`.
    ///
    /// - Parameters:
    ///   - http: How the back end is reached.
    ///   - logger: Where loading is logged.
    public init(http: any HTTPClient, logger: any ShopLogger) {
        self.http = http
        self.logger = logger
    }

    /// Every product, read from `GET /inventory` on the first call.
    ///
    /// - Returns: The products.
    /// - Throws: ``ShopError`` when the inventory cannot be read.
    public func products() async throws -> [Product] {
        if let products = loaded.withLock({ $0 }) { return products }
        let response = try await http.send(OutboundRequest(method: "GET", path: "/inventory"))
        guard response.isSuccess,
            let products = try? JSONDecoder().decode([Product].self, from: Data(response.body.utf8))
        else {
            throw ShopError("The inventory could not be read: GET /inventory answered \(response.status).")
        }
        logger.log("catalog: loaded \(products.count) products")
        return loaded.withLock { stored in
            if let stored { return stored }
            stored = products
            return products
        }
    }

    /// The product with `id`.
    ///
    /// - Parameter id: The product's identifier.
    /// - Returns: The product.
    /// - Throws: ``ShopError`` when no product has that identifier.
    public func product(id: String) async throws -> Product {
        guard let product = try await products().first(where: { $0.id == id }) else {
            throw ShopError("No product has the ID \"\(id)\"; GET /products lists the IDs.")
        }
        return product
    }
}
