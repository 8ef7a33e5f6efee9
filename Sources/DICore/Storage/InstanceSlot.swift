import Synchronization

/// Holds the one instance of a registration in one place (a container, a resolve), built exactly once even
/// when many threads or tasks ask at the same moment.
///
/// The slot keeps only the instance. Who is building it, and who waits for that build, is the business of
/// `BuildCoordinator`, which the synchronous and the `async` path share: they differ only in how a waiter
/// sleeps (a thread blocks on a condition, a task suspends). No lock is held while a factory runs, so a
/// factory may register, resolve and create children freely, and a chain of any depth holds no lock.
///
/// A `.singleton` slot (`lockFreeReads`) also publishes its instance through an atomic pointer read without a
/// lock; such a slot is never reset, so the pointer stays valid for the slot's life. A registration's own
/// slot publishes the instance in the registration as well (`Registration.builtSingleton`), where the resolve
/// fast path reads it one load sooner. Other slots are read under their lock and can be reset.
@usableFromInline
package final class InstanceSlot: Sendable {
    package enum Retention: Sendable {
        case strong
        /// Holds the instance weakly: shared while somebody else keeps it.
        case weak
    }

    package let retention: Retention
    /// The box of a `.strong` slot, retained; read without a lock when `lockFreeReads`, otherwise under the
    /// lock `guarded` names, which stores and resets take too.
    private let box: Unsafe.AtomicReference<AnyObject>
    /// Which lock serializes reads, stores and resets.
    private let guarded: Guard

    private enum Guard: Sendable {
        /// None: the slot is stored once and never reset (`lockFreeReads`), so its one exchange of `box`
        /// needs no lock (and a singleton's registration allocates no lock).
        case unguarded
        /// Its own lock, which also holds the instance of a `.weak` slot.
        case own(Lock<WeakObject?>)
        /// The lock of the container whose slot store keeps the slot: a container that keeps more instances
        /// than it has cells keeps a slot per instance, and a lock of its own would be an allocation and a mutex
        /// per instance. Unretained: every use of the slot holds the container (it got the slot from the
        /// container's store, or is the container closing or resetting).
        case container(Unsafe.Unowned<Container>)
        /// The same lock, for reads and resets only: a slot of the container's cells (`KeptCells`) stores its
        /// instance without it, and the container takes it out when it closes. Unretained, as above.
        case cell(Unsafe.Unowned<Container>)
    }
    /// The token of the resolution building this slot's instance, `0` when nobody does; claimed and cleared
    /// by the `BuildCoordinator` only.
    let builder = Atomic<Int>(0)
    /// The number of the build that stored the instance of a cell's slot (`KeptCells.nextBuild()`), for the
    /// order of disposal.
    private let storedBuild = Atomic<Int>(0)
    /// The registration a cell's slot is bound to; a tag alone once the cell is retired, empty for other slots.
    private let bound: Unsafe.AtomicReference<Registration>
    /// The slot of the next cell of the container's cells (`KeptCells`), once bound; never replaced.
    let nextCell = Unsafe.AtomicReference<InstanceSlot>()
    /// How many times the slot was reset. A build reads it before its factory runs and does not keep its
    /// instance here when a reset came meanwhile: the next resolve after a reset builds a new instance, and the
    /// late one is held apart by the container (`holdApart`) until the container disposes it.
    private let resets = Atomic<Int>(0)

    package init(retention: Retention, lockFreeReads: Bool) {
        self.retention = retention
        guarded = lockFreeReads && retention == .strong ? .unguarded : .own(Lock(nil))
        box = Unsafe.AtomicReference()
        bound = Unsafe.AtomicReference()
    }

    /// A `.strong` slot kept in `container`'s slot store, under the container's lock.
    init(keptBy container: Container) {
        retention = .strong
        guarded = .container(Unsafe.Unowned(container))
        box = Unsafe.AtomicReference()
        bound = Unsafe.AtomicReference()
    }

    /// A `.strong` slot holding `box`, the instance of a build that a reset overtook: held by its container
    /// like any other (disposed when the container closes or resets the scope), and never handed out again.
    package init(parking box: AnyObject) {
        retention = .strong
        guarded = .own(Lock(nil))
        self.box = Unsafe.AtomicReference(box)
        bound = Unsafe.AtomicReference()
    }

    /// A `.strong` slot of one of `container`'s cells, bound to `registration`.
    init(inCellOf container: Container, for registration: Registration) {
        retention = .strong
        guarded = .cell(Unsafe.Unowned(container))
        box = Unsafe.AtomicReference()
        bound = Unsafe.AtomicReference(registration)
    }

    /// Whether this is the slot of a cell bound to `registration` (and not retired): compared by address,
    /// without a lock (see `Unsafe`).
    func isCell(of registration: Registration) -> Bool {
        bound.refers(to: registration)
    }

    /// The registration a cell's slot is bound to, `nil` once retired. The caller holds the container's lock.
    var cellRegistration: Registration? {
        bound.loadIgnoringTag()?.object
    }

    /// Retires a cell's slot bound to `registration`: it forgets the registration (and returns it, for the
    /// caller to drop after the lock) and is never matched again; `nil` when bound to another. The caller holds
    /// the container's lock.
    func retireCell(of registration: Registration) -> Registration? {
        guard bound.refers(to: registration) else { return nil }
        return bound.exchange(nil, tag: true)
    }

    /// The number of the build that stored the instance of a cell's slot (`0` for other slots).
    package var buildNumber: Int { storedBuild.load(ordering: .relaxed) }

    /// Claims the build for the resolution `token`; `false` when somebody builds already.
    func claim(for token: Int) -> Bool {
        builder.compareExchange(expected: 0, desired: token, ordering: .sequentiallyConsistent).exchanged
    }

    /// The box of a slot that is never reset (a `.singleton`'s, `lockFreeReads`) once stored, unretained: valid
    /// as long as the slot, which keeps it. `nil` before the store, and for every other slot.
    @usableFromInline
    package func publishedBox() -> Unsafe.Unowned<AnyObject>? {
        guard case .unguarded = guarded else { return nil }
        return box.load()
    }

    /// The instance's box, if one is built and (for a weak slot) still alive.
    package func current(_ registration: Registration) -> AnyObject? {
        switch guarded {
        case .unguarded:
            // Never reset, so its box lives as long as the slot.
            return box.load()?.object
        case .container(let container), .cell(let container):
            // Finding the slot empty — every request-scoped instance before its build, twice (before the claim
            // and after it) — takes no lock. A reader that finds it empty while a store is under way reads as if
            // it had come just before the store, which is still building: its claim finds the builder and
            // waits, or, after the build's `finish`, finds the box (stored before the builder is cleared).
            guard !box.isEmpty else { return nil }
            return container.with { $0.withStateLocked { box.load()?.object } }
        case .own(let state):
            return state.withLock { weak -> AnyObject? in
                switch retention {
                case .strong:
                    return box.load()?.object
                case .weak:
                    guard let object = weak?.object else { return nil }
                    return registration.body.rebox(object)
                }
            }
        }
    }

    /// Empties a resettable slot and returns the box it held. `.singleton` slots are never reset.
    package func reset() -> AnyObject? {
        switch guarded {
        case .unguarded:
            return nil
        case .container(let container), .cell(let container):
            return container.with {
                $0.withStateLocked {
                    // Counted before the slot is emptied (see `store` for a cell's slot, which stores without
                    // this lock).
                    resets.add(1, ordering: .sequentiallyConsistent)
                    return box.exchange(nil)
                }
            }
        case .own(let state):
            return state.withLock { weak in
                resets.add(1, ordering: .relaxed)
                weak = nil
                return box.exchange(nil)
            }
        }
    }

    /// Whether a cell's slot holds an instance; for a caller that holds the container's lock, under which
    /// nothing empties it. A sequentially consistent load (see `store`): closing asks it after setting the
    /// cells' flag, and must not miss a box stored by a builder that then found the flag unset.
    var holdsInstance: Bool { !box.isEmpty }

    /// Empties a cell's slot and returns the instance it held, as the service it was registered as; for a
    /// caller that holds the container's lock (closing the container), under which the cell's registration is
    /// not retired.
    func takeInstanceUnderContainerLock() -> Any? {
        guard let box = box.exchange(nil) else { return nil }
        // A retired cell holds an instance only when a build that started before the replacement ended after
        // it; the box then unboxes itself.
        guard let registration = bound.loadIgnoringTag() else { return (box as? any AnyInstanceBox)?.anyValue }
        return registration.with { registration -> Any? in registration.body.unbox(box) }
    }

    /// Keeps `box`, the instance just built for `registration` by a build that began when the slot had been
    /// reset `generation` times. Returns whether the slot also recorded it as held by its container (a
    /// container-kept slot, whose container was not closed meanwhile), so that the builder need not
    /// (`Container.hold`).
    ///
    /// A container-kept slot reset since the build began does not keep the instance, which its asker still
    /// gets: the container holds it apart (`holdApart`). A `.weak` slot does not keep it either. The other
    /// `.strong` slots with a lock of their own (a resolution's `.graph` slots, a custom scope's gates) are
    /// never reset while they are built.
    private func store(
        _ built: Unsafe.SendableReference<AnyObject>,
        for registration: Registration,
        generation: Int
    ) -> Bool {
        let state: Lock<WeakObject?>
        switch guarded {
        case .unguarded:
            // A `lockFreeReads` slot is built once (the build coordinator lets one build at a time, and a built
            // slot is not claimed again), so no lock-free reader loses the box it read.
            let replaced = box.exchange(built.object)
            assert(replaced == nil, "a lock-free slot was stored twice")
            return false
        case .container(let container):
            // Stored and held under one taking of the container's lock, which guards both (a container's slot
            // past its cells). Only an empty slot is built, so nothing is replaced (and released under the lock).
            // A container closed meanwhile does not hold it: the builder's `hold` then disposes it and refuses.
            let stored = container.with { container in
                container.withHeldInstances { held -> Bool? in
                    guard resets.load(ordering: .relaxed) == generation else { return nil }
                    _ = box.exchange(built.object)
                    guard !held.isClosed else { return false }
                    held.instances.appendMakingRoomForAFew(
                        HeldInstance(slot: self, registration: registration, build: container.cells.nextBuild())
                    )
                    return true
                }
            }
            return stored ?? holdApart(built, of: registration, in: container)
        case .cell(let container):
            // Without the lock: the number first (the box's store publishes it), so that whoever takes the box
            // out finds it; then the box, then the closed flag, which closing sets before it looks for the boxes
            // (all four sequentially consistent), so that either closing finds the box or this finds the flag. Only
            // an empty slot is built. A container closed meanwhile does not keep it: the builder's `hold` then
            // takes it back, disposes it and refuses. A reset, in the same way, counts and then empties the slot,
            // so that a build that finds the count unchanged after its store was stored before the reset emptied
            // the slot; one that finds it changed takes its box back, unless the reset (or a close) took it first
            // and disposes it.
            let closed = container.with { container in
                storedBuild.store(container.cells.nextBuild(), ordering: .relaxed)
                let stored = box.storeIfEmpty(built.object)
                assert(stored, "a kept cell's slot was stored twice")
                return container.cells.isClosed.load(ordering: .sequentiallyConsistent)
            }
            if resets.load(ordering: .sequentiallyConsistent) != generation {
                return box.takeBack(built.object) ? holdApart(built, of: registration, in: container) : !closed
            }
            return !closed
        case .own(let own):
            state = own
        }
        state.withLock { weak in
            switch retention {
            case .strong:
                box.exchange(built.object)
            case .weak:
                guard resets.load(ordering: .relaxed) == generation else { return }
                weak = registration.body.object(built.object).map(WeakObject.init)
            }
        }
        return false
    }

    /// Has `container` hold `built`, the instance of `registration` whose build a reset of this slot overtook,
    /// apart from the slot, and returns `true`. When the container closed meanwhile, disposes the instance and
    /// returns `false`: the builder's `hold` then refuses, as for any build that ends after its holder closed.
    private func holdApart(
        _ built: Unsafe.SendableReference<AnyObject>,
        of registration: Registration,
        in container: Unsafe.Unowned<Container>
    ) -> Bool {
        let held = container.with { $0.tryHold(InstanceSlot(parking: built.object), of: registration) }
        if !held { Container.dispose(registration.body.unbox(built.object)) }
        return held
    }

    /// The instance, building it with `build` if the slot is empty. `built` tells whether this call built it
    /// and its container still has to hold it (`Container.hold`): `false` for a container-kept slot, whose
    /// store records it as held. `holder` is the container that holds the instance, if any: a closed one
    /// refuses it to askers that waited for another's build (see `refuseIfClosedMeanwhile`).
    ///
    /// A registration that cannot build synchronously (an `async` factory) is never claimed here: `build`
    /// then throws `asyncResolutionRequired` at once, and a concurrent `async` build is left alone.
    @inline(__always)
    package func instance(
        of registration: Registration,
        resolution: ResolutionScope,
        holder: Unsafe.Unowned<Container>? = nil,
        build: () throws -> AnyObject
    ) throws -> (box: AnyObject, built: Bool) {
        guard registration.body.buildsSynchronously else {
            return try current(registration).map { ($0, false) } ?? (try build(), false)
        }
        return try once(describedBy: registration, resolution: resolution, holder: holder, build: build)
    }

    /// The instance, building it with `build` exactly once if the slot is empty, whatever `registration`'s
    /// factory is: `registration` only names the build in cycle errors. What `Lazy` keeps its value in.
    @inline(__always)
    package func once(
        describedBy registration: Registration,
        resolution: ResolutionScope,
        holder: Unsafe.Unowned<Container>? = nil,
        build: () throws -> AnyObject
    ) throws -> (box: AnyObject, built: Bool) {
        var waited = false
        while true {
            if waited { try refuseIfClosedMeanwhile(holder, registration) }
            if let box = current(registration) { return (box, false) }
            switch try BuildCoordinator.shared.claim(self, for: registration, resolution: resolution) {
            case .lookAgain:
                waited = true
                continue
            case .build:
                let generation = resets.load(ordering: .sequentiallyConsistent)
                // Called directly rather than through `Result { … }`: each frame between two levels of a
                // deep chain costs stack on every level.
                let box: AnyObject
                do {
                    try refuseIfClosedMeanwhile(holder, registration)
                    box = try build()
                } catch {
                    BuildCoordinator.shared.finish(self)
                    throw error
                }
                let held = finishBuild(of: registration, box: box, generation: generation)
                return (box, !held)
            case .queued:
                preconditionFailure("a synchronous claim waits inside the coordinator")
            }
        }
    }

    /// The instance, building it with the `async` `build` if the slot is empty; waiting askers suspend.
    package func instance(
        of registration: Registration,
        resolution: ResolutionScope,
        holder: Unsafe.Unowned<Container>? = nil,
        build: () async throws -> AnyObject
    ) async throws -> (box: AnyObject, built: Bool) {
        var waited = false
        while true {
            if waited { try refuseIfClosedMeanwhile(holder, registration) }
            if let box = current(registration) { return (box, false) }
            switch try BuildCoordinator.shared.claimOrQueue(self, for: registration, resolution: resolution) {
            case .lookAgain:
                waited = true
                continue
            case .build:
                let generation = resets.load(ordering: .sequentiallyConsistent)
                let box: AnyObject
                do {
                    try refuseIfClosedMeanwhile(holder, registration)
                    box = try await build()
                } catch {
                    BuildCoordinator.shared.finish(self)
                    throw error
                }
                let held = finishBuild(of: registration, box: box, generation: generation)
                return (box, !held)
            case .queued(let wait):
                await BuildCoordinator.shared.suspend(until: wait)
                waited = true
            }
        }
    }

    /// Throws `containerClosed` when `holder`, the container that holds this slot's instance, has closed since
    /// the resolve began: asked after a wait for another's build, and before a build. The close refuses a build's
    /// instance only after the build stored it and let the waiters look again: a waiter would be handed an
    /// instance disposed, or about to be, or, once the slot is emptied, run the factory again for a container
    /// that can hold nothing. (Not asked at the first look, which finds a built instance.)
    @inline(__always)
    private func refuseIfClosedMeanwhile(_ holder: Unsafe.Unowned<Container>?, _ registration: Registration) throws {
        try holder?.with { try $0.refuseIfClosed(registration.serviceType, registration) }
    }

    /// Stores a successful build that began after the slot's `generation`th reset, then lets the waiters look
    /// again and find it (or, when a reset overtook the build, find the slot empty, and one of them builds);
    /// returns whether the store recorded it as held. (After a failed build the caller only finishes: the
    /// waiters find the slot empty, and one of them builds.)
    private func finishBuild(of registration: Registration, box: AnyObject, generation: Int) -> Bool {
        let held = store(Unsafe.SendableReference(box), for: registration, generation: generation)
        // A registration's own singleton slot (not a test container's, nor a `Lazy`'s) also publishes the box
        // in the registration, where the resolve fast path reads it.
        if registration.shortcut == .singleton, registration.singleton === self {
            registration.builtSingleton.storeIfEmpty(box)
        }
        BuildCoordinator.shared.finish(self)
        return held
    }
}

/// A weak reference to the instance of a `.weak` slot.
/// Lives only inside the slot's lock, which is what makes sharing it safe.
private final class WeakObject {
    weak var object: AnyObject?

    init(_ object: AnyObject) { self.object = object }
}
