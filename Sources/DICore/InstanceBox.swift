/// A built instance of any service behind one pointer, so that instance slots can hold values and classes
/// alike, publish them atomically and read them without a lock.
///
/// This is the one type in DIToolkit whose sendability the compiler does not check, and why that is sound:
/// a box is immutable after `init`, and the registration entry points create boxes that are shared across
/// threads only for `Service: Sendable` (every lifetime that keeps instances requires it); a box of a
/// non-Sendable service is created only for lifetimes confined to one resolution (`.graph`), and never
/// leaves that resolution, or by the once-slot of a lazy property wrapper (DIPropertyWrappers' `LazySlot`),
/// which is itself `Sendable` only when the service is, so such a box stays in one isolation domain.
@usableFromInline
package final class InstanceBox<Service>: @unchecked Sendable {
    @usableFromInline package let value: Service

    @inlinable
    package init(_ value: Service) {
        self.value = value
    }
}
