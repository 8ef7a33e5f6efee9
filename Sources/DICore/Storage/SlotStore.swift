import Synchronization

/// Per-container instance slots, keyed by registration, for lifetimes that keep one instance per container:
/// a view of the slots in the container's state, under the container's lock.
///
/// An entry keeps its registration alive, so that its `ObjectIdentifier` cannot be reused by a later
/// registration while the slot exists.
package struct SlotStore: Sendable {
    /// The container whose state this is, which the strong slots it makes name for their lock. Unretained:
    /// a slot store is a view made for one call on a container (`container.slots.slot(for:)`), which the
    /// caller keeps alive.
    let owner: Unsafe.Unowned<Container>

    /// Runs `body` on the slots under the owner's lock.
    private func withSlots<Result>(_ body: (inout Slots) -> Result) -> Result {
        owner.with { container in container.state.withLock { body(&$0.slots) } }
    }

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
    /// in one of the container's cells (`KeptCells`, without its lock), or, once those are bound, in the store,
    /// guarded by the container's lock (`InstanceSlot(keptBy:)`).
    package func slot(for registration: Registration) -> InstanceSlot {
        let kept = owner.with { $0.cells.slot(for: registration, in: $0) }
        return kept ?? slot(for: registration) { owner.with { InstanceSlot(keptBy: $0) } }
    }

    /// The slot of `registration` in this container, made by `make` the first time.
    package func slot(for registration: Registration, make: () -> InstanceSlot) -> InstanceSlot {
        withSlots { slots in
            if let position = slots.position(of: registration) { return slots.entries[position].slot }
            let slot = make()
            slots.append(registration, slot)
            return slot
        }
    }

    /// Drops the slot of `registration` (replaced), or retires its cell, and returns the slot.
    package func remove(_ registration: Registration) -> InstanceSlot? {
        // The removed entry, or the cell's reference to the registration, is dropped after the lock: the last
        // reference to anything it keeps may be released there, and a child container's `deinit` takes this
        // container's lock.
        typealias Removed = (registration: Registration, slot: InstanceSlot)
        let removed = owner.with { container in
            container.state.withLock { state -> Removed? in
                if let retired = container.cells.retire(registration) { return retired }
                return state.slots.position(of: registration).map { state.slots.remove(at: $0) }
            }
        }
        return removed?.slot
    }

    /// Every slot with its registration: the cells' in the order they were bound, then the store's, oldest
    /// first.
    package var all: [(registration: Registration, slot: InstanceSlot)] {
        owner.with { container in container.state.withLock { container.cells.bound + $0.slots.entries } }
    }
}
