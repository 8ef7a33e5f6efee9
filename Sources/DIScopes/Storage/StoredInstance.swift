import DICore

/// One built instance, as a custom scope hands it to its ``InstanceStorage``.
///
/// A storage keeps it and returns it unchanged; only the container creates stored instances, so a storage
/// can never hand out an instance of the wrong type. Read ``value`` to look at the instance itself:
///
/// ```swift
/// for instance in storage.releaseAll() {
///     (instance.value as? any Disposable)?.dispose()
/// }
/// ```
public final class StoredInstance: Sendable, CustomStringConvertible {
    /// The key it was built for.
    ///
    /// ```swift
    /// print(instance.key)   // Inbox in app
    /// ```
    public let key: InstanceKey
    /// The instance's box. Only services registered through the `Sendable`-constrained `register(_:scope:)`
    /// overloads reach a custom scope, which is what makes sharing the box safe.
    private let reference: Unsafe.SendableReference<AnyObject>
    private let unbox: @Sendable (AnyObject) -> Any

    init(box: AnyObject, key: InstanceKey, registration: Registration) {
        self.key = key
        reference = Unsafe.SendableReference(box)
        unbox = registration.body.unbox
    }

    /// Used by ``checkInstanceStorage(_:)``, which stores probes of its own.
    init<Value: Sendable>(probe value: Value, key: InstanceKey) {
        self.key = key
        reference = Unsafe.SendableReference(InstanceBox(value))
        unbox = { unsafeDowncast($0, to: InstanceBox<Value>.self).value }
    }

    /// The box the container hands out.
    var box: AnyObject { reference.object }

    /// The instance itself, for example to check whether it is `Disposable`.
    ///
    /// ```swift
    /// (instance.value as? any Disposable)?.dispose()
    /// ```
    public var value: Any { unbox(box) }

    /// The key and the instance's type, for logs.
    ///
    /// ```swift
    /// print(instance)   // Logger "primary" in app: ConsoleLogger
    /// ```
    public var description: String { "\(key): \(type(of: value))" }
}
