/// A built instance of any service behind one pointer, so that instance slots can hold values and classes
/// alike, publish them atomically and read them without a lock.
///
/// Slots keep boxes as retained `Unmanaged` bits, so a box needs no `Sendable` conformance; the registration
/// entry points make sure that only boxes of `Sendable` services are kept by lifetimes shared across threads.
@usableFromInline
package final class InstanceBox<Service> {
    @usableFromInline package let value: Service

    @inlinable
    package init(_ value: Service) {
        self.value = value
    }
}
