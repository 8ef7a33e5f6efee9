import DICore

/// Injects a service on the first read of the property, then keeps it.
///
/// ```swift
/// final class ReportScreen {
///     @LazyInject(name: "primary") var database: Database    // resolved when first read
/// }
///
/// let screen = withContainer(testContainer) { ReportScreen() }
/// screen.database       // resolved now, from testContainer: the container ambient when the screen was made
/// ```
///
/// The container is captured when the owner is created, not at the first read, so an object made inside a
/// test's `withContainer` keeps resolving from that test's container wherever it is read later. (Inside a
/// factory, the captured container is the one that factory's dependencies come from.) It is released once
/// the service is resolved. As with `Lazy`, what the first read returned is kept: a reset of the service's scope
/// or a new registration afterwards does not change it.
///
/// Reads after the first cost an atomic load and no lock. If two threads read first at the same moment,
/// both may resolve, one result is kept and both return it — also when one of the two resolves fails (its
/// container closed, its factory threw) after the other's succeeded. A read that cannot resolve the service
/// **traps** with the container's full diagnostic and the property's file and line; `try $database.resolve()`
/// throws the same ``InjectionError`` instead. An optional property is `nil` when nothing is registered.
///
/// Copies of the owner share one slot (the wrapper holds it by reference). `LazyInject` is `Sendable` when
/// the service is.
@propertyWrapper
public struct LazyInject<Value> {
    /// Owns the slot.
    @usableFromInline let slot: LazySlot<Value>
    /// The same slot without reference counting, for reads: `slot` keeps it alive as long as this wrapper,
    /// so a read costs an atomic load and the value's retain, not also a retain and release of the slot.
    @usableFromInline let unownedSlot: Unsafe.Unowned<LazySlot<Value>>

    /// Captures the ambient container, to resolve the property's type under `name` on the first read.
    ///
    /// ```swift
    /// @LazyInject(name: "primary") var database: Database
    /// ```
    ///
    /// - Parameters:
    ///   - name: The registration name; `nil` for the unnamed registration.
    ///   - fileID: The property's file, printed if it cannot be injected; leave the default.
    ///   - line: The property's line, printed if it cannot be injected; leave the default.
    @inlinable
    public init(name: String? = nil, fileID: String = #fileID, line: Int = #line) {
        let slot = LazySlot<Value>(
            .type(name: name), container: Container.ambient, wrapper: "@LazyInject",
            location: SourceLocation(fileID: fileID, line: line)
        )
        self.slot = slot
        unownedSlot = Unsafe.Unowned(slot)
    }

    /// The service, resolved on the first read.
    @inlinable
    public var wrappedValue: Value {
        // Yields a borrow of the value the slot keeps, so a read costs what a stored property's does:
        // no retain and release, as a getter returning the value would need.
        _read { yield unownedSlot.with { $0.address }.pointee }
    }

    /// The wrapper itself, for `$property.resolve()` and `$property.isResolved`.
    public var projectedValue: LazyInject<Value> { self }

    /// The service, resolving it now if it was not yet; throws instead of trapping.
    ///
    /// ```swift
    /// let database = try screen.$database.resolve()
    /// ```
    ///
    /// - Returns: The same instance the property returns.
    /// - Throws: ``InjectionError`` with the container's diagnostic when the service cannot be resolved; a
    ///   later call tries again.
    public func resolve() throws(InjectionError) -> Value { try slot.resolve() }

    /// Whether the service was resolved.
    public var isResolved: Bool { slot.isResolved }

    /// The container the property will resolve from; `nil` once it is resolved.
    public var container: Container? { slot.container }
}

extension LazyInject: Sendable where Value: Sendable {}
