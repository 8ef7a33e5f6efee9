/// An ``InstanceStorage`` made of several, asked in order: the first that has an instance answers;
/// a new instance is stored into all of them, and a release releases it from all of them.
///
/// ```swift
/// // Kept for the session, and also listed in a registry that the debug menu shows.
/// let session = Scope.custom("session", storage: CompositeStorage(sessionStorage, debugRegistry))
/// ```
///
/// A later storage's instance is handed out as it is: it is not copied into the earlier ones.
public struct CompositeStorage: InstanceStorage {
    /// The storages, in the order they are asked.
    public let storages: [any InstanceStorage]

    /// Creates a composite of `storages`, asked in this order.
    ///
    /// - Parameter storages: The storages; the first one that has an instance answers.
    public init(_ storages: [any InstanceStorage]) {
        self.storages = storages
    }

    /// Creates a composite of `storages`, asked in this order.
    ///
    /// ```swift
    /// let storage = CompositeStorage(memory, disk)
    /// ```
    public init(_ storages: any InstanceStorage...) {
        self.init(storages)
    }

    /// The instance of the first storage that has one under `key`.
    public func instance(for key: InstanceKey) -> StoredInstance? {
        for storage in storages {
            if let instance = storage.instance(for: key) { return instance }
        }
        return nil
    }

    /// Stores `instance` under `key` in every storage.
    public func store(_ instance: StoredInstance, for key: InstanceKey) {
        for storage in storages { storage.store(instance, for: key) }
    }

    /// Releases `key` from every storage; returns the instance of the first that had one.
    public func release(_ key: InstanceKey) -> StoredInstance? {
        var first: StoredInstance?
        for storage in storages {
            let released = storage.release(key)
            if first == nil { first = released }
        }
        return first
    }
}
