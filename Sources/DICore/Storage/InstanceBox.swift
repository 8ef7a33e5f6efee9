/// A built instance of any service behind one pointer, so that instance slots can hold values and classes
/// alike, publish them atomically and read them without a lock.
///
/// A box needs no `Sendable` conformance: slots keep boxes through `Unsafe.AtomicReference`, whose claim the
/// registration entry points back by keeping only boxes of `Sendable` services in lifetimes shared across
/// threads.
@usableFromInline
package final class InstanceBox<Service> {
    @usableFromInline package let value: Service

    @inlinable
    package init(_ value: Service) {
        self.value = value
    }

    /// The value in `box`, a published box of this type (`Registration.builtSingleton`), read without
    /// retaining the box: the registration keeps it alive.
    @inlinable @inline(__always)
    package static func value(in box: Unsafe.Unowned<AnyObject>) -> Service {
        box.with { unsafeDowncast($0, to: InstanceBox<Service>.self).value }
    }
}

/// A box of a `Sendable` value is itself one: it only keeps the value, immutably.
extension InstanceBox: Sendable where Service: Sendable {}

/// A box that hands out its value as `Any` without knowing the registration that made it: what closing a
/// container uses for an instance whose registration was replaced (and released) while it was being built.
protocol AnyInstanceBox: AnyObject {
    var anyValue: Any { get }
}

extension InstanceBox: AnyInstanceBox {
    var anyValue: Any { value }
}
