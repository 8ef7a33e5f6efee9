import Synchronization

/// Per-container instance slots, keyed by registration, for lifetimes that keep one instance per container:
/// a view of the slots in the container's state, under the container's lock.
///
/// An entry keeps its registration alive, so that its `ObjectIdentifier` cannot be reused by a later
/// registration while the slot exists.
package struct SlotStore: Sendable {
    let state: Lock<ContainerState>
    /// The container whose state this is, which the strong slots it makes name for their lock.
    let owner: Unsafe.Unowned<Container>

    /// The entries in the order they were made, and, past a few, an index of them by registration.
    ///
    /// A request's container keeps two or three slots: scanning that many costs less than a `Dictionary`,
    /// which would allocate its storage, hash with SipHash on every lookup and free its storage again with
    /// the container.
    struct Slots {
        var entries: [(registration: Registration, slot: InstanceSlot)] = []
        /// Positions in `entries`; built once they outgrow `linearLimit`, rebuilt after a removal.
        var index: [ObjectIdentifier: Int]?

        static let linearLimit = 8

        func position(of registration: Registration) -> Int? {
            if let index { return index[ObjectIdentifier(registration)] }
            return entries.firstIndex { $0.registration === registration }
        }

        mutating func append(_ registration: Registration, _ slot: InstanceSlot) {
            entries.appendMakingRoomForAFew((registration, slot))
            if index != nil {
                index![ObjectIdentifier(registration)] = entries.count - 1
            } else if entries.count > Self.linearLimit {
                reindex()
            }
        }

        mutating func remove(at position: Int) -> (registration: Registration, slot: InstanceSlot) {
            let entry = entries.remove(at: position)
            if index != nil { reindex() }
            return entry
        }

        private mutating func reindex() {
            var positions: [ObjectIdentifier: Int] = [:]
            for (position, entry) in entries.enumerated() { positions[ObjectIdentifier(entry.registration)] = position }
            index = positions
        }
    }

    /// The strong slot of `registration` in this container, made the first time: one instance per container,
    /// guarded by the container's lock (`InstanceSlot(keptBy:)`).
    package func slot(for registration: Registration) -> InstanceSlot {
        slot(for: registration) { owner.with { InstanceSlot(keptBy: $0) } }
    }

    /// The slot of `registration` in this container, made by `make` the first time.
    package func slot(for registration: Registration, make: () -> InstanceSlot) -> InstanceSlot {
        state.withLock { state in
            if let position = state.slots.position(of: registration) { return state.slots.entries[position].slot }
            let slot = make()
            state.slots.append(registration, slot)
            return slot
        }
    }

    /// Drops the slot of `registration` (replaced), and returns it.
    @discardableResult
    package func remove(_ registration: Registration) -> InstanceSlot? {
        // The removed entry is dropped after the lock: the last reference to anything it keeps may be
        // released there, and a child container's `deinit` takes this container's lock.
        let removed = state.withLock { state in
            state.slots.position(of: registration).map { state.slots.remove(at: $0) }
        }
        return removed?.slot
    }

    /// Every slot with its registration, oldest first.
    package var all: [(registration: Registration, slot: InstanceSlot)] {
        state.withLock { $0.slots.entries }
    }
}
