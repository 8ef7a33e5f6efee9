import ShopCore
import Synchronization

/// An ``OrderStore`` that keeps the most recent orders only, so a server's memory stays flat however many
/// orders it takes.
///
/// ```swift
/// try app.autoregister((any OrderStore).self, scope: .singleton) { RecentOrderStore(capacity: 100) }
/// ```
public final class RecentOrderStore: OrderStore {
    private struct State {
        var issued = 0
        var orders: [Order] = []
        var oldest = 0
    }

    private let capacity: Int
    private let state = Mutex(State())

    /// Makes an empty store.
    ///
    /// - Parameter capacity: How many orders it keeps; older ones are forgotten.
    public init(capacity: Int = 100) {
        self.capacity = max(1, capacity)
    }

    /// A new order number, `order-1`, `order-2`, ….
    ///
    /// - Returns: The ID.
    public func nextOrderID() -> String {
        let number = state.withLock { state in
            state.issued += 1
            return state.issued
        }
        return "order-\(number)"
    }

    /// Keeps `order`, forgetting the oldest one when the store is full.
    ///
    /// - Parameter order: The order.
    public func save(_ order: Order) {
        state.withLock { state in
            if state.orders.count < capacity {
                state.orders.append(order)
            } else {
                state.orders[state.oldest] = order
                state.oldest = (state.oldest + 1) % capacity
            }
        }
    }

    /// The kept orders of `user`, oldest first.
    ///
    /// - Parameter user: The user.
    /// - Returns: The orders.
    public func orders(of user: String) -> [Order] {
        state.withLock { state in
            let ordered = state.orders[state.oldest...] + state.orders[..<state.oldest]
            return ordered.filter { $0.user == user }
        }
    }
}
