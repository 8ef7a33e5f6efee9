import DICore

/// Injects a key of the keypath registry on the first read of the property, then keeps it.
///
/// ```swift
/// final class Scheduler {
///     @LazyInjected(\.clock) var clock           // resolved when first read
/// }
/// ```
///
/// The lazy counterpart of ``Injected``, with the behaviour of ``LazyInject``: the ambient container is
/// captured when the owner is created, reads after the first cost an atomic load, a read that cannot resolve
/// the key traps with the full diagnostic, and `try $clock.resolve()` throws it instead.
@propertyWrapper
public struct LazyInjected<Value> {
    /// Owns the slot.
    @usableFromInline let slot: LazySlot<Value>
    /// The same slot without reference counting, for reads: `slot` keeps it alive as long as this wrapper,
    /// so a read costs an atomic load and the value's retain, not also a retain and release of the slot.
    @usableFromInline let unownedSlot: Unsafe.Unowned<LazySlot<Value>>

    /// Captures the ambient container, to resolve `key` on the first read.
    ///
    /// ```swift
    /// @LazyInjected(\.clock) var clock
    /// ```
    ///
    /// - Parameters:
    ///   - key: The key path of the key: `\.clock`.
    ///   - fileID: The property's file, printed if it cannot be injected; leave the default.
    ///   - line: The property's line, printed if it cannot be injected; leave the default.
    @inlinable
    public init(_ key: ServiceKeyPath<Value>, fileID: String = #fileID, line: Int = #line) {
        let slot = LazySlot<Value>(
            .key(key), container: Container.ambient, wrapper: "@LazyInjected",
            location: SourceLocation(fileID: fileID, line: line)
        )
        self.slot = slot
        unownedSlot = Unsafe.Unowned(slot)
    }

    /// The service, resolved on the first read.
    @inlinable
    public var wrappedValue: Value {
        _read { yield unownedSlot.with { $0.address }.pointee }
    }

    /// The wrapper itself, for `$property.resolve()` and `$property.isResolved`.
    public var projectedValue: LazyInjected<Value> { self }

    /// The service, resolving it now if it was not yet; throws instead of trapping.
    ///
    /// ```swift
    /// let clock = try scheduler.$clock.resolve()
    /// ```
    ///
    /// - Returns: The same instance the property returns.
    /// - Throws: ``InjectionError`` with the container's diagnostic when the key cannot be resolved.
    public func resolve() throws(InjectionError) -> Value { try slot.resolve() }

    /// Whether the service was resolved.
    public var isResolved: Bool { slot.isResolved }
}

extension LazyInjected: Sendable where Value: Sendable {}
