/// Where a custom scope keeps its instances: one per ``InstanceKey``, until the storage lets go of it.
///
/// Give a storage to `Scope.custom(_:storage:)`. On every resolve the container asks the storage with
/// ``instance(for:)``; only when that returns `nil` does it build the instance (once, however many threads
/// ask together) and hand it over with ``store(_:for:)``. The container calls ``release(_:)`` when the
/// instance must go: `reset(_:includingDescendants:)` with the scope, `close()` of the registering
/// container, or a new registration of the key; it disposes what `release` returns.
///
/// The storage decides how long an instance lives. It may drop instances on its own (an expiry, a log-out);
/// the next resolve then builds a new one.
///
/// ```swift
/// /// Keeps instances until `expire()`, e.g. for everything that belongs to one signed-in user.
/// final class UserStorage: InstanceStorage {
///     private let instances = Mutex<[InstanceKey: StoredInstance]>([:])
///
///     func instance(for key: InstanceKey) -> StoredInstance? { instances.withLock { $0[key] } }
///     func store(_ instance: StoredInstance, for key: InstanceKey) { instances.withLock { $0[key] = instance } }
///     func release(_ key: InstanceKey) -> StoredInstance? { instances.withLock { $0.removeValue(forKey: key) } }
///     func expire() { instances.withLock { $0.removeAll() } }
/// }
///
/// let user = Scope.custom("user", storage: UserStorage())
/// try app.register(Inbox.self, scope: user) { r in Inbox(api: try r.resolve(API.self)) }
/// ```
///
/// The rules every storage must follow, which ``checkInstanceStorage(_:)`` verifies in a test:
/// - ``instance(for:)`` returns only what was stored under that very key, never an instance of another key
///   (keys of one service type in one container are still different keys);
/// - after ``store(_:for:)``, ``instance(for:)`` returns that instance until it is released or replaced,
///   at least while somebody else still holds it;
/// - ``release(_:)`` forgets the instance and returns it (`nil` when there was none), and afterwards keeps no
///   reference to it;
/// - all three are safe to call from any thread at once. None of them may resolve from or register in a
///   container: ``instance(for:)`` is called without any lock of the container's held, but ``store(_:for:)`` and
///   ``release(_:)`` are called under the scope's own lock, which orders a build's store against a reset's
///   release of the same key (a store that a release overtook is not made, so that the next resolve builds anew).
public protocol InstanceStorage: Sendable {
    /// The instance stored under `key`, or `nil` to have the container build one.
    ///
    /// ```swift
    /// func instance(for key: InstanceKey) -> StoredInstance? { instances.withLock { $0[key] } }
    /// ```
    ///
    /// - Parameter key: Identifies one registration of one service.
    /// - Returns: What ``store(_:for:)`` stored under `key`, if the storage still has it.
    func instance(for key: InstanceKey) -> StoredInstance?

    /// Keeps `instance` under `key`, replacing anything stored under it before.
    ///
    /// ```swift
    /// func store(_ instance: StoredInstance, for key: InstanceKey) { instances.withLock { $0[key] = instance } }
    /// ```
    ///
    /// - Parameters:
    ///   - instance: The instance the container just built.
    ///   - key: Identifies one registration of one service.
    func store(_ instance: StoredInstance, for key: InstanceKey)

    /// Forgets the instance stored under `key` and returns it, so that the container can dispose it.
    ///
    /// ```swift
    /// func release(_ key: InstanceKey) -> StoredInstance? { instances.withLock { $0.removeValue(forKey: key) } }
    /// ```
    ///
    /// - Parameter key: Identifies one registration of one service.
    /// - Returns: The instance that was stored, or `nil` if there was none.
    func release(_ key: InstanceKey) -> StoredInstance?
}
