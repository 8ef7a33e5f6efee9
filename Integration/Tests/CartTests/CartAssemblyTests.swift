import Cart
import DICore
import DITesting
import ShopApp
import ShopCore
import ShopTestSupport
import Testing

/// The cart feature in strict mode: each test case resolves from a private copy of the `cart` container,
/// and resolving a service of the app's graph that the suite did not allow is a test failure. The suite
/// allows the cart and its store live; pricing must be allowed per test.
@Suite(
    .shopFeature(\.cart), .isolatedContainer(strict: true),
    .allowLive((any ShoppingCart).self), .allowLive(CartStore.self)
)
struct CartAssemblyTests {
    let cup = Product(id: "cup", name: "Ceramic cup", priceCents: 1_200)
    let grinder = Product(id: "grinder", name: "Hand grinder", priceCents: 6_900)

    @Test(.allowLive(CartPricing.self))
    func addingAProductTwiceAddsToItsLine() throws {
        let cart = try CartAssembly.makeSession(user: "alice", below: Container.current)
            .resolve((any ShoppingCart).self)
        try cart.add(cup, quantity: 1)
        try cart.add(cup, quantity: 2)
        #expect(cart.lines == [CartLine(product: cup, quantity: 3)])
        #expect(cart.totalCents == 3 * cup.priceCents + Shipping.feeCents)
    }

    @Test(.allowLive(CartPricing.self))
    func shippingIsFreeFromTheThreshold() throws {
        let cart = try CartAssembly.makeSession(user: "bob", below: Container.current)
            .resolve((any ShoppingCart).self)
        try cart.add(grinder, quantity: 1)
        #expect(grinder.priceCents >= Shipping.freeFromCents)
        #expect(cart.totalCents == grinder.priceCents)
    }

    @Test(.allowLive(CartPricing.self))
    func aSessionKeepsOneCartAndSessionsDoNotShare() throws {
        let alice = try CartAssembly.makeSession(user: "alice", below: Container.current)
        let bob = try CartAssembly.makeSession(user: "bob", below: Container.current)
        let screen = alice.child(name: "cart screen")
        let aliceCart = try alice.resolve((any ShoppingCart).self)
        #expect(try screen.resolve((any ShoppingCart).self) as AnyObject === aliceCart as AnyObject)
        #expect(try bob.resolve((any ShoppingCart).self) as AnyObject !== aliceCart as AnyObject)
        try aliceCart.add(cup, quantity: 1)
        #expect(try bob.resolve((any ShoppingCart).self).lines.isEmpty)
    }

    @Test(.allowLive(CartPricing.self))
    func aQuantityBelowOneIsRefused() throws {
        let cart = try CartAssembly.makeSession(user: "carol", below: Container.current)
            .resolve((any ShoppingCart).self)
        let error = #expect(throws: ShopError.self) { try cart.add(cup, quantity: 0) }
        #expect(error?.description.contains("at least 1") == true)
        #expect(cart.lines.isEmpty)
    }

    @Test(.allowLive(CartPricing.self))
    func pricingIsScopedToTheAskingContainer() throws {
        let alice = try CartAssembly.makeSession(user: "alice", below: Container.current)
        let bob = try CartAssembly.makeSession(user: "bob", below: Container.current)
        #expect(try alice.resolve(CartPricing.self) === alice.resolve(CartPricing.self))
        #expect(try alice.resolve(CartPricing.self) !== bob.resolve(CartPricing.self))
    }

    @Test func strictModeReportsPricingThatWasNotAllowed() throws {
        let session = try CartAssembly.makeSession(user: "dave", below: Container.current)
        withKnownIssue("CartPricing is neither overridden nor allowed in this test") {
            _ = try session.resolve(CartPricing.self)
        }
    }

    @Test(.timeLimit(.minutes(1)), .allowLive(CartPricing.self))
    func concurrentAddsAreAllKept() async throws {
        let cart = try CartAssembly.makeSession(user: "erin", below: Container.current)
            .resolve((any ShoppingCart).self)
        let cup = cup
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<100 { group.addTask { try cart.add(cup, quantity: 1) } }
            try await group.waitForAll()
        }
        #expect(cart.lines == [CartLine(product: cup, quantity: 100)])
    }
}
