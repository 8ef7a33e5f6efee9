import Catalog
import DICore
import DITesting
import ShopApp
import ShopCore
import ShopTestSupport
import XCTest

/// The XCTest helper: each method runs in its own test container made from the catalog feature's
/// container, so what `setUp` registers never reaches the next method or the app.
final class CatalogDITestCaseTests: DITestCase {
    override var baseContainer: Container {
        (try? TestShop.shared.get().catalog) ?? Container(name: "no shop app")
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        let teaOnly = [Product(id: "tea", name: "Green tea", priceCents: 800)]
        try Container.current.register((any HTTPClient).self) { _ in InMemoryHTTPClient.shopBackend(products: teaOnly) }
    }

    func testListsTheOverriddenInventory() async throws {
        let lines = try await Container.current.resolve(ProductListing.self).lines()
        XCTAssertEqual(lines, ["Green tea — 8.00 €"])
    }

    func testTheAppsCatalogIsUntouched() async throws {
        let app = try TestShop.shared.get().catalog
        XCTAssertFalse(Container.current === app)
        let products = try await app.resolve((any ProductCatalog).self).products()
        XCTAssertEqual(products, InMemoryHTTPClient.sampleProducts)
    }
}
