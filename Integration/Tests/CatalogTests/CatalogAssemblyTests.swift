import Catalog
import DICore
import DITesting
import ShopApp
import ShopCore
import ShopTestSupport
import Testing

/// The catalog feature through the app's graph: every test case gets a private copy of the `catalog`
/// container, so the parameterised cases below run in parallel, each with its own back end behind the
/// app's `ProductCatalog` singleton.
@Suite(.shopFeature(\.catalog), .isolatedContainer)
struct CatalogAssemblyTests {
    static let inventories: [[Product]] = [
        [Product(id: "tea", name: "Green tea", priceCents: 800)],
        [Product(id: "kettle", name: "Kettle", priceCents: 3_900), Product(id: "mug", name: "Mug", priceCents: 900)],
        [],
    ]

    @Test func listsTheBackEndsInventory() async throws {
        let listing = try Container.current.resolve(ProductListing.self)
        let lines = try await listing.lines()
        #expect(lines.count == InMemoryHTTPClient.sampleProducts.count)
        #expect(lines.first == "Espresso beans 1 kg — 24.90 €")
    }

    @Test(arguments: inventories)
    func eachTestCaseSeesOnlyItsOwnBackEnd(inventory: [Product]) async throws {
        try Container.current.register((any HTTPClient).self) { _ in
            InMemoryHTTPClient.shopBackend(products: inventory)
        }
        let catalog = try Container.current.resolve((any ProductCatalog).self)
        #expect(try await catalog.products() == inventory)
    }

    @Test(.override((any HTTPClient).self) { _ in InMemoryHTTPClient(routes: [:]) })
    func aFailingInventoryIsAnError() async throws {
        let catalog = try Container.current.resolve((any ProductCatalog).self)
        await #expect(throws: ShopError.self) { try await catalog.products() }
    }

    @Test func anUnknownProductNamesItsID() async throws {
        let catalog = try Container.current.resolve((any ProductCatalog).self)
        let error = await #expect(throws: ShopError.self) { try await catalog.product(id: "teapot") }
        #expect(error?.description.contains("\"teapot\"") == true)
    }

    @Test func theCatalogIsASingletonOfTheTestContainer() throws {
        let first = try Container.current.resolve((any ProductCatalog).self)
        let second = try Container.current.resolve((any ProductCatalog).self)
        #expect(first as AnyObject === second as AnyObject)
    }
}
