import DICore

/// An ``InstanceStorage`` that keeps every instance strongly until it is released: a scope you end
/// yourself, for example everything that belongs to one signed-in user.
///
/// ```swift
/// let userStorage = DictionaryStorage()
/// let user = Scope.custom("user", storage: userStorage)
/// try app.register(Inbox.self, scope: user) { r in Inbox(api: try r.resolve(API.self)) }
///
/// // On sign-out: the next resolve builds a new Inbox.
/// for instance in userStorage.releaseAll() {
///     (instance.value as? any Disposable)?.dispose()
/// }
/// ```
///
/// `app.reset(user)` does the same for the registrations of `app` alone, and disposes them for you.
public final class DictionaryStorage: InstanceStorage {
    private let instances = Lock<[InstanceKey: StoredInstance]>([:])

    /// Creates an empty storage.
    ///
    /// ```swift
    /// let session = Scope.custom("session", storage: DictionaryStorage())
    /// ```
    public init() {}

    /// The instance stored under `key`, if any.
    ///
    /// ```swift
    /// let cached = storage.instance(for: key)?.value as? Inbox
    /// ```
    ///
    /// - Parameter key: The registration's key.
    /// - Returns: The stored instance, or `nil`.
    public func instance(for key: InstanceKey) -> StoredInstance? {
        instances.withLock { $0[key] }
    }

    /// Keeps `instance` under `key`, replacing what was there.
    ///
    /// The container calls this after building an instance; you rarely call it yourself:
    ///
    /// ```swift
    /// other.store(instance, for: key)   // e.g. move an instance between two storages
    /// ```
    ///
    /// - Parameters:
    ///   - instance: The instance the container built.
    ///   - key: The registration's key.
    public func store(_ instance: StoredInstance, for key: InstanceKey) {
        instances.withLock { $0[key] = instance }
    }

    /// Forgets the instance stored under `key` and returns it.
    ///
    /// ```swift
    /// (storage.release(key)?.value as? any Disposable)?.dispose()
    /// ```
    ///
    /// - Parameter key: The registration's key.
    /// - Returns: The instance that was stored, or `nil`.
    public func release(_ key: InstanceKey) -> StoredInstance? {
        instances.withLock { $0.removeValue(forKey: key) }
    }

    /// Forgets every instance and returns them, so that you can dispose them.
    ///
    /// ```swift
    /// storage.releaseAll().forEach { ($0.value as? any Disposable)?.dispose() }
    /// ```
    @discardableResult
    public func releaseAll() -> [StoredInstance] {
        instances.withLock { instances in
            defer { instances.removeAll() }
            return Array(instances.values)
        }
    }

    /// How many instances the storage keeps.
    ///
    /// ```swift
    /// print("\(storage.count) services live for this user")
    /// ```
    public var count: Int { instances.withLock { $0.count } }
}
