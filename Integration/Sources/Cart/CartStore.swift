import ShopCore
import Synchronization

/// Every user's cart lines, kept for the app's lifetime so that a cart outlives the session container
/// (a server makes one per request) that shows it.
///
/// ```swift
/// let store = CartStore()
/// store.update("alice") { $0.append(CartLine(product: cup, quantity: 1)) }
/// store.lines(of: "alice").count      // 1
/// ```
public final class CartStore: Sendable {
    private let carts = Mutex<[String: [CartLine]]>([:])

    /// Makes an empty store.
    public init() {}

    /// The lines of `user`'s cart.
    ///
    /// - Parameter user: The user's name.
    /// - Returns: The lines, in the order they were first added.
    public func lines(of user: String) -> [CartLine] {
        carts.withLock { $0[user] ?? [] }
    }

    /// Changes `user`'s lines in one step, so that concurrent changes never lose each other.
    ///
    /// - Parameters:
    ///   - user: The user's name.
    ///   - change: Edits the lines.
    public func update(_ user: String, _ change: (inout [CartLine]) -> Void) {
        carts.withLock { change(&$0[user, default: []]) }
    }
}
