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
    public init() {}

    /// The instance stored under `key`, if any.
    public func instance(for key: InstanceKey) -> StoredInstance? {
        instances.withLock { $0[key] }
    }

    /// Keeps `instance` under `key`, replacing what was there.
    public func store(_ instance: StoredInstance, for key: InstanceKey) {
        instances.withLock { $0[key] = instance }
    }

    /// Forgets the instance stored under `key` and returns it.
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
    public var count: Int { instances.withLock { $0.count } }
}
