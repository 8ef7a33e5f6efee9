import Checkout
import DICore
import DITesting
import ShopApp
import ShopCore
import ShopTestSupport
import Testing

/// The checkout feature through the app's graph. Each test case overrides what it needs — the clock, the
/// back end, the merchant account — in its own copy of the `checkout` container, and the app's singletons
/// (the gateway, the order store) are built anew for it with those overrides.
@Suite(.shopFeature(\.checkout), .isolatedContainer)
struct CheckoutAssemblyTests {
    let cup = Product(id: "cup", name: "Ceramic cup", priceCents: 1_200)

    @Test(.override(\.clock) { _ in FixedClock(now: 1_767_225_600) })
    func placesAndStoresAnOrder() async throws {
        let checkout = try await Container.current.resolveAsync((any CheckoutService).self)
        let order = try await checkout.placeOrder(for: "alice", lines: [CartLine(product: cup, quantity: 2)])
        #expect(order.totalCents == 2 * cup.priceCents + Shipping.feeCents)
        #expect(order.placedAt == 1_767_225_600)
        #expect(order.paymentID == "pay-1")    // this test's own back end counted from 1
        #expect(try Container.current.resolve((any OrderStore).self).orders(of: "alice") == [order])
    }

    @Test(arguments: ["coffee-shop", "tea-house"])
    func opensThePaymentSessionForTheConfiguredMerchant(merchantID: String) async throws {
        let http = InMemoryHTTPClient.shopBackend()
        try Container.current.register((any HTTPClient).self, scope: .singleton) { _ in http }
        try Container.current.register(\.paymentConfiguration) { _ in PaymentConfiguration(merchantID: merchantID) }
        let gateway = try await Container.current.resolveAsync((any PaymentGateway).self)
        #expect((gateway as? CardGateway)?.merchantID == merchantID)
        #expect(http.requests.first?.body.contains(merchantID) == true)
    }

    @Test(.override((any HTTPClient).self) { _ in
        InMemoryHTTPClient(routes: ["POST /payments/sessions": { _ in OutboundResponse(status: 201) }])
    })
    func aDeclinedPaymentStoresNothing() async throws {
        let checkout = try await Container.current.resolveAsync((any CheckoutService).self)
        await #expect(throws: ShopError.self) {
            try await checkout.placeOrder(for: "bob", lines: [CartLine(product: cup, quantity: 1)])
        }
        #expect(try Container.current.resolve((any OrderStore).self).orders(of: "bob").isEmpty)
    }

    @Test func anEmptyCartIsRefused() async throws {
        let checkout = try await Container.current.resolveAsync((any CheckoutService).self)
        let error = await #expect(throws: ShopError.self) { try await checkout.placeOrder(for: "carol", lines: []) }
        #expect(error?.description.contains("empty") == true)
    }

    @Test(.timeLimit(.minutes(1)))
    func concurrentCheckoutsGetDistinctOrders() async throws {
        let checkout = try await Container.current.resolveAsync((any CheckoutService).self)
        let lines = [CartLine(product: cup, quantity: 1)]
        let ids = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<20 {
                group.addTask { try await checkout.placeOrder(for: "user\(index)", lines: lines).id }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(ids.count == 20)
    }
}
