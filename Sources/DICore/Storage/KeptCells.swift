import Synchronization

/// The first few instance slots a container keeps for registrations that hold one instance per container
/// (`.matching` in the tagged container, `.scoped`, `.cached`, a test container's own singletons), stored in
/// the container itself: found, made and filled without the container's lock, and taken all at once, in the
/// lock section that closes the container.
///
/// A request's container keeps two or three instances. In the slot store each of them took the container's
/// lock to be found, again to be stored (and recorded in the held list), and again to be taken at close, and the
/// store and the held list each allocated an array; in cells, finding a slot is a walk over a few of them and
/// storing its instance two atomic writes.
///
/// A cell is a slot that knows its registration, in a list. It is *bound* once, by a compare-and-swap of a new
/// slot into the empty link at the end of the list, and never bound again: every asker walks from the first
/// cell and binds at the end, so two askers of one registration meet there, and a registration has one cell
/// however many threads ask at once. When the registration is replaced its cell is *retired*, under the
/// container's lock: the slot forgets the registration (nothing keeps a replaced registration alive) and is
/// never matched again, and its instance is taken out to be disposed. Registrations beyond the cells (a ninth,
/// or any once retired cells have used them up) get a slot in the container's slot store instead.
///
/// Every cell's slot (`InstanceSlot(inCellOf:)`) numbers its build from `nextBuild()`, as the held list numbers
/// its instances, so that closing disposes the instances of both newest first.
struct KeptCells: ~Copyable, Sendable {
    /// How many cells a container has at most: past a few, a scan costs more than the store's lock.
    static var capacity: Int { 8 }

    /// The slot of the first cell; each slot names the next (`InstanceSlot.nextCell`). Slots are only ever
    /// appended, never replaced: read without a lock for as long as the container lives. (A list, not an
    /// array of words in the container: every container would set up and tear down each word, also the
    /// many that keep nothing.)
    private let first = Unsafe.AtomicReference<InstanceSlot>()
    /// Set under the container's lock when the container closes: a slot that finds it set after storing its
    /// instance does not keep it (see `InstanceSlot.store`).
    let isClosed = Atomic<Bool>(false)
    /// The number of the latest build of an instance the container holds.
    private let builds = Atomic<Int>(0)

    init() {}

    /// The number of a build that is storing its instance; later builds get larger numbers.
    func nextBuild() -> Int {
        builds.add(1, ordering: .relaxed).newValue
    }

    /// The slot of `registration`, binding a cell of `container` (whose cells these are) to it the first time;
    /// `nil` when every cell is bound to something else.
    func slot(for registration: Registration, in container: Container) -> InstanceSlot? {
        var previous: Unsafe.Unowned<InstanceSlot>?
        var cells = 0
        while cells < Self.capacity {
            if let slot = next(after: previous) {
                if slot.with({ $0.isCell(of: registration) }) { return slot.object }
                previous = slot
                cells += 1
                continue
            }
            let made = InstanceSlot(inCellOf: container, for: registration)
            let bound = previous.map { $0.with { $0.nextCell.storeIfEmpty(made) } } ?? first.storeIfEmpty(made)
            if bound { return made }
            // Another asker bound this cell first, to this registration or another: look at it again.
        }
        return nil
    }

    /// The slot of the cell after `previous`'s (the first cell's after `nil`), if bound.
    private func next(after previous: Unsafe.Unowned<InstanceSlot>?) -> Unsafe.Unowned<InstanceSlot>? {
        guard let previous else { return first.load() }
        return previous.with { $0.nextCell.load() }
    }

    /// Runs `body` on the slot of each bound cell, in the order they were bound.
    private func forEach(_ body: (Unsafe.Unowned<InstanceSlot>) throws -> Void) rethrows {
        var slot = first.load()
        while let current = slot {
            try body(current)
            slot = current.with { $0.nextCell.load() }
        }
    }

    /// Retires the cell of `registration`, if it has one; returns the slot's reference to the registration,
    /// which the caller drops after the lock, and the slot. The caller holds the container's lock.
    func retire(_ registration: Registration) -> (registration: Registration, slot: InstanceSlot)? {
        var retired: (registration: Registration, slot: InstanceSlot)?
        forEach { slot in
            guard retired == nil, let released = slot.with({ $0.retireCell(of: registration) }) else { return }
            retired = (released, slot.object)
        }
        return retired
    }

    /// Each bound cell's registration and slot, in the order they were bound. The caller holds the container's
    /// lock.
    var bound: [(registration: Registration, slot: InstanceSlot)] {
        var result: [(registration: Registration, slot: InstanceSlot)] = []
        forEach { slot in
            if let registration = slot.with({ $0.cellRegistration }) { result.append((registration, slot.object)) }
        }
        return result
    }

    /// Marks the cells closed and takes every instance out of them into `kept`, oldest build first, with the
    /// numbers of their builds when `numbered` (to merge them with the held list's). The caller holds the
    /// container's lock (closing it): no other taker can empty a cell meanwhile, and a cell's registration cannot
    /// be retired, so it unboxes the instance without being retained.
    func close(into kept: inout KeptInstances, numbered: Bool) {
        // Set before any cell is looked at, both sequentially consistent (see `InstanceSlot.store`): a builder
        // storing meanwhile either has its box found below or finds the flag, and then disposes it itself.
        isClosed.store(true, ordering: .sequentiallyConsistent)
        // Oldest build first: each round walks the few cells for the oldest instance not yet taken. No array
        // to sort, and each instance is copied once.
        while true {
            var oldest: (build: Int, slot: Unsafe.Unowned<InstanceSlot>)?
            forEach { slot in
                guard slot.with({ $0.holdsInstance }) else { return }
                let build = slot.with { $0.buildNumber }
                if build < oldest?.build ?? .max { oldest = (build, slot) }
            }
            guard let (build, slot) = oldest else { return }
            if let value = slot.with({ $0.takeInstanceUnderContainerLock() }) {
                kept.values.appendMakingRoomForAFew(value)
                if numbered { kept.builds.appendMakingRoomForAFew(build) }
            }
        }
    }
}

/// The instances taken out of a closed container's cells, oldest build first, and, when asked for, the numbers
/// of their builds (`builds[i]` is that of `values[i]`).
struct KeptInstances {
    var values: [Any] = []
    var builds: [Int] = []
}
