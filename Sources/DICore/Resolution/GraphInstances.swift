import Synchronization

/// The `.graph` instances of one async top-level resolve.
package final class GraphInstances: Sendable {
    private let slots = Lock<[ObjectIdentifier: InstanceSlot]>([:])

    func slot(for registration: Registration) -> InstanceSlot {
        slots.withLock { slots in
            if let slot = slots[ObjectIdentifier(registration)] { return slot }
            let slot = InstanceSlot(retention: .strong, lockFreeReads: false)
            slots[ObjectIdentifier(registration)] = slot
            return slot
        }
    }
}
