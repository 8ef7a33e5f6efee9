import Synchronization

/// Per-container instance slots, keyed by registration, for lifetimes that keep one instance per container.
///
/// An entry keeps its registration alive, so that its `ObjectIdentifier` cannot be reused by a later
/// registration while the slot exists.
package struct SlotStore: Sendable {
    private let slots = Lock<[ObjectIdentifier: (registration: Registration, slot: InstanceSlot)]>([:])

    /// The slot for `registration`, created with `make` on first use.
    package func slot(for registration: Registration, make: () -> InstanceSlot) -> InstanceSlot {
        slots.withLock { slots in
            let id = ObjectIdentifier(registration)
            if let entry = slots[id] { return entry.slot }
            let slot = make()
            slots[id] = (registration, slot)
            return slot
        }
    }

    /// Forgets the slot of `registration` (replaced), returning it.
    @discardableResult
    package func remove(_ registration: Registration) -> InstanceSlot? {
        slots.withLock { $0.removeValue(forKey: ObjectIdentifier(registration))?.slot }
    }

    /// Every slot with its registration, for resets.
    package var all: [(registration: Registration, slot: InstanceSlot)] {
        slots.withLock { Array($0.values) }
    }
}
