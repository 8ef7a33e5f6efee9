import Synchronization

/// An ``OrderStore`` in memory, safe to share between concurrent requests; with a capacity it keeps only the
/// most recent orders, so a server's memory stays flat however many orders it takes.
///
/// ```swift
/// try app.register((any OrderStore).self, scope: .singleton) { _ in InMemoryOrderStore() }
/// try server.register((any OrderStore).self, scope: .singleton) { _ in InMemoryOrderStore(capacity: 100) }
/// ```
public final class InMemoryOrderStore: OrderStore {
    private struct State {
        var issued = 0
        /// A ring once `capacity` is reached: `oldest` is where the next order goes.
        var orders: [Order] = []
        var oldest = 0
    }

    private let capacity: Int?
    private let state = Mutex(State())

    /// Makes an empty store that keeps every order.
    public convenience init() {
        self.init(keeping: nil)
    }

    /// Makes an empty store that keeps the most recent `capacity` orders.
    ///
    /// - Parameter capacity: How many orders it keeps (at least 1); older ones are forgotten.
    public convenience init(capacity: Int) {
        self.init(keeping: max(1, capacity))
    }

    private init(keeping capacity: Int?) {
        self.capacity = capacity
    }

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

    /// Keeps `order`, replacing an order with the same ID; when the store is full, it forgets the oldest one.
    ///
    /// - Parameter order: The order.
    public func save(_ order: Order) {
        state.withLock { state in
            if let index = state.orders.firstIndex(where: { $0.id == order.id }) {
                state.orders[index] = order
            } else if let capacity, state.orders.count == capacity {
                state.orders[state.oldest] = order
                state.oldest = (state.oldest + 1) % capacity
            } else {
                state.orders.append(order)
            }
        }
    }

    /// Every kept order of `user`, oldest first.
    ///
    /// - Parameter user: The user's name.
    /// - Returns: The orders.
    public func orders(of user: String) -> [Order] {
        state.withLock { state in
            (state.orders[state.oldest...] + state.orders[..<state.oldest]).filter { $0.user == user }
        }
    }
}
