import ShopCore
import Testing

/// The in-memory order store: every order by default, the most recent ones with a capacity.
@Suite struct InMemoryOrderStoreTests {
    static func order(_ store: InMemoryOrderStore, for user: String) -> Order {
        Order(id: store.nextOrderID(), user: user, lines: [], totalCents: 100, paymentID: "pay", placedAt: 0)
    }

    @Test func keepsEveryOrderOfAUserOldestFirst() {
        let store = InMemoryOrderStore()
        let orders = (0..<5).map { _ in Self.order(store, for: "ada") }
        orders.forEach(store.save)
        store.save(Self.order(store, for: "bob"))
        #expect(store.orders(of: "ada") == orders)
        #expect(store.orders(of: "bob").map(\.id) == ["order-6"])
    }

    @Test func withACapacityForgetsTheOldestAndKeepsTheOrder() {
        let store = InMemoryOrderStore(capacity: 3)
        let orders = (0..<7).map { _ in Self.order(store, for: "ada") }
        orders.forEach(store.save)
        #expect(store.orders(of: "ada") == Array(orders.suffix(3)))
    }

    @Test func savingAnOrderAgainReplacesItInPlace() {
        let store = InMemoryOrderStore(capacity: 2)
        let first = Self.order(store, for: "ada")
        let second = Self.order(store, for: "ada")
        store.save(first)
        store.save(second)
        let amended = Order(id: first.id, user: "ada", lines: [], totalCents: 250, paymentID: "pay", placedAt: 1)
        store.save(amended)
        #expect(store.orders(of: "ada") == [amended, second])
    }
}
