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
    ///
    /// ```swift
    /// CompositeStorage(memory, disk).storages.count   // 2
    /// ```
    public let storages: [any InstanceStorage]

    /// Creates a composite of `storages`, asked in this order.
    ///
    /// ```swift
    /// let storage = CompositeStorage([memory, disk])
    /// ```
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
    ///
    /// - Parameter storages: The storages; the first one that has an instance answers.
    public init(_ storages: any InstanceStorage...) {
        self.init(storages)
    }

    /// The instance of the first storage that has one under `key`.
    ///
    /// ```swift
    /// CompositeStorage(memory, disk).instance(for: key)   // memory's, else disk's, else nil
    /// ```
    ///
    /// - Parameter key: The registration's key.
    /// - Returns: The first stored instance found, or `nil`.
    public func instance(for key: InstanceKey) -> StoredInstance? {
        for storage in storages {
            if let instance = storage.instance(for: key) { return instance }
        }
        return nil
    }

    /// Stores `instance` under `key` in every storage.
    ///
    /// ```swift
    /// composite.store(instance, for: key)   // memory and disk both keep it
    /// ```
    ///
    /// - Parameters:
    ///   - instance: The instance the container built.
    ///   - key: The registration's key.
    public func store(_ instance: StoredInstance, for key: InstanceKey) {
        for storage in storages { storage.store(instance, for: key) }
    }

    /// Releases `key` from every storage; returns the instance of the first that had one.
    ///
    /// ```swift
    /// let released = composite.release(key)   // gone from memory and disk
    /// ```
    ///
    /// - Parameter key: The registration's key.
    /// - Returns: The instance of the first storage that had one, or `nil`.
    public func release(_ key: InstanceKey) -> StoredInstance? {
        var first: StoredInstance?
        for storage in storages {
            let released = storage.release(key)
            if first == nil { first = released }
        }
        return first
    }
}
