import Synchronization

/// An ``OrderStore`` in memory, safe to share between concurrent requests.
///
/// ```swift
/// try app.register((any OrderStore).self, scope: .singleton) { _ in InMemoryOrderStore() }
/// ```
public final class InMemoryOrderStore: OrderStore {
    private struct State {
        var issued = 0
        var orders: [Order] = []
    }

    private let state = Mutex(State())

    /// Makes an empty store.
    public init() {}

    /// Hands out the next order number: `order-1`, `order-2`, …
    ///
    /// - Returns: The order number.
    public func nextOrderID() -> String {
        let number = state.withLock { state in
            state.issued += 1
            return state.issued
        }
        return "order-\(number)"
    }

    /// Keeps `order`, replacing an order with the same ID.
    ///
    /// - Parameter order: The order.
    public func save(_ order: Order) {
        state.withLock { state in
            state.orders.removeAll { $0.id == order.id }
            state.orders.append(order)
        }
    }

    /// Every order of `user`, oldest first.
    ///
    /// - Parameter user: The user's name.
    /// - Returns: The orders.
    public func orders(of user: String) -> [Order] {
        state.withLock { $0.orders.filter { $0.user == user } }
    }
}
