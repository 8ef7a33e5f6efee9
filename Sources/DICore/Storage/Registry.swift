import Synchronization

/// One container's registrations: a published `RegistrationTable` read without a lock, plus a small map of
/// registrations not yet folded into it.
///
/// Publishing a table copies every registration, so doing it on every `register` would make start-up
/// quadratic. New keys wait in `pending` (visible at once, through a lock, to lookups that miss the table)
/// and are folded in when a lookup first needs them, or once the lookups that had to take the lock have paid
/// for a copy. Replacing a key that is already in the table publishes at once, because lock-free readers
/// trust the table.
///
/// The published word is the table's address with bit 0 set while registrations are pending, so that one
/// acquiring load tells a reader both which table to read and whether to look further: with two separate
/// atomics a reader could see an old table together with the "nothing pending" of a newer publish, and miss
/// a registration its own thread had just made.
///
/// A replaced table is *retired*, not freed: a reader may still be inside it. Every read happens in a read
/// section (`TableReclamation`), and once the retired tables hold as many registrations as the live one,
/// those no reader can still see are freed — with the registrations only they kept, and so the instances of
/// replaced singletons. Memory stays bounded however often a long-lived container re-registers a key: at
/// most about twice the live table, plus what a reader that stays inside a factory for long still sees.
///
/// A noncopyable value kept inside its `Container` rather than an object of its own: the resolve fast path
/// then reaches the published word in one load from the container, on every level of the walk. Its state is
/// guarded by the container's one lock (`ContainerState.registry`): a request's container would otherwise
/// make and destroy a second mutex per request. No code holds that lock while it registers or looks up, and
/// nothing dropped while it is held can run code that takes it (see `close()`).
@usableFromInline
package struct Registry: ~Copyable, Sendable {
    /// The published table, with the tag set while registrations are pending.
    @usableFromInline let published: Unsafe.AtomicReference<RegistrationTable>
    private let lock: Lock<ContainerState>
    /// Set once a registration made with `overridable: false` is added, and never cleared: until then a
    /// descendant's registration has nothing here it may not shadow, and need not look (a lookup per
    /// ancestor, which a request's container would pay for each value it registers).
    private let holdsFinal = Atomic<Bool>(false)
    /// Two bits of the hash of every key ever made pending, set before the table that announces it is
    /// published: a lookup whose bits are not all set knows without the lock that its key is not pending. A
    /// request's container has a few values pending for its whole life, and most of what it is asked for
    /// (its ancestors' services) misses them. Never cleared (a lookup that read an older table may test the
    /// bits after a newer one took the pending registrations in), so a long-lived container's saturates,
    /// and its lookups take the lock as before.
    private let pendingKeyBits = Atomic<UInt>(0)

    struct State {
        var pending = PendingRegistrations()
        /// A value kept without its registration (see `PendingValue`): only while nothing else is registered,
        /// pending or published. `withState` makes its registration, into `pending`, before anything but the
        /// fast path's lookup and `close()` looks at the state.
        var pendingValue: PendingValue?
        /// Whether a pending registration replaces a published one (publishing must then drop the old one).
        var pendingReplacesPublished = false
        /// Lookups that took the lock because registrations were pending, since the last publish.
        var lockedLookups = 0
        /// How many diagnostics taps watch this container; the table is tapped while it is above zero.
        var taps = 0
        /// The tables this container replaced, kept until no reader can see them: `nil` until it replaces one
        /// (a request's container never does), so that a container made and dropped sets none of it up.
        var retirement: Retirement?
    }

    /// What a container keeps of the tables it replaced (`retire(_:_:)`).
    struct Retirement {
        /// Replaced tables not yet checked against the readers.
        var retired: [RegistrationTable] = []
        /// Replaced tables that readers were inside when they were checked, with those readers.
        var waiting: [(tables: [RegistrationTable], readers: TableReclamation.Readers)] = []
        /// The registrations the retired and waiting tables hold, counted with repeats.
        var retiredRegistrations = 0
        /// How many retired registrations trigger the next attempt to free retired tables: none while no
        /// reader held any back, so that a replaced singleton is freed as soon as it can be.
        var reclaimAt = 0
        /// Tables freed under the lock, released once it is given up (their registrations' instances may
        /// run `deinit`s that call back into the container).
        var freed: [RegistrationTable] = []
        /// Retired tables too few to pay for a barrier of their own, handed to `Registry.batch` once the lock
        /// is given up.
        var handedOver: [RegistrationTable] = []

        /// Whether tables wait to be released or handed over once the lock is given up.
        var hasTablesToHandOut: Bool { !freed.isEmpty || !handedOver.isEmpty }
    }

    /// How many lookups under the lock a container takes before it publishes its pending registrations.
    static let lockedLookupsBeforePublishing = 4
    /// The same, while no more registrations are pending than `PendingRegistrations` scans one by one.
    package static let lockedLookupsBeforePublishingFew = 32

    /// How many retired registrations pay for a process-wide barrier. A container whose retired tables hold
    /// fewer (a request's container, closed with a few registrations) hands them to `batch` instead, so that
    /// a server pays for one barrier per batch of requests, not one per request.
    static let barrierMinimum = 64

    /// The retired tables of many containers, freed together once they hold `barrierMinimum` registrations.
    private static let batch = Lock(Batch())

    private struct Batch {
        var retired: [RegistrationTable] = []
        var waiting: [(tables: [RegistrationTable], readers: TableReclamation.Readers)] = []
        /// The registrations the retired and waiting tables hold.
        var registrations = 0
        var reclaimAt = Registry.barrierMinimum
    }

    /// Makes the registry of the container whose state `lock` guards. It starts with the shared empty table,
    /// so making one builds no table (and, the table being permanent, writes nothing to it).
    init(lock: Lock<ContainerState>) {
        published = Unsafe.AtomicReference(permanent: RegistrationTable.empty)
        self.lock = lock
    }

    /// Runs `body` on the published table, without retaining it, and whether registrations are pending
    /// (a lookup that misses the table must then also look at those).
    ///
    /// `body` runs inside a read section, so the table cannot be freed under it; a caller that keeps using
    /// what it found unretained after `body` returns must hold a read section of its own around both.
    @inlinable
    func withTable<R>(_ body: (RegistrationTable, _ hasPending: Bool) -> R) -> R {
        TableReclamation.reading {
            let (table, hasPending) = published.loadTagged()
            return table.with { body($0, hasPending) }
        }
    }

    /// The published table, unretained, and whether registrations are pending: valid only inside the
    /// caller's read section. For the resolve fast path, which holds one section around its whole walk.
    @inlinable
    func tableInSection() -> (table: Unsafe.Unowned<RegistrationTable>, hasPending: Bool) {
        let (table, hasPending) = published.loadTagged()
        return (table, hasPending)
    }

    /// Runs `body` on the published table without retaining it.
    @inlinable
    func withTable<R>(_ body: (RegistrationTable) -> R) -> R {
        withTable { table, _ in body(table) }
    }

    /// The live table: the published one, which the published reference keeps (no retain: the shared tables
    /// live for the process, and a request's container would otherwise retain the empty one every core
    /// shares). Valid while the lock is held: only a writer holding it replaces the table.
    private var table: Unsafe.Unowned<RegistrationTable> { published.loadTagged().object }

    /// The live table's registration for `key`, retained (the lock held).
    private func liveRegistration(for key: RegistrationKey) -> Registration? {
        table.with { $0.registration(for: key) }
    }

    /// How many registrations the live table holds (the lock held).
    private var liveCount: Int { table.with { $0.count } }

    /// Tells readers whether registrations are pending beside the live table.
    private func publishPending(_ pending: Bool) {
        published.setTag(pending)
    }

    /// Whether a registration made with `overridable: false` may be here (it was added at some point).
    package var mayHoldFinalRegistrations: Bool { holdsFinal.load(ordering: .acquiring) }

    /// The registration for `key` in this container (not its ancestors), published or pending.
    package func registration(for key: RegistrationKey) -> Registration? {
        let hash = key.tableHash
        // A read section by hand rather than `withTable`: a closure handed to it would carry a copy of the key
        // (a string and reference counts) on every lookup.
        let section = TableReclamation.enter()
        let (table, hasPending) = tableInSection()
        let found = table.with { $0.find(key, hash: hash)?.object }
        TableReclamation.leave(section)
        if let found { return found }
        guard hasPending else { return nil }
        return pendingRegistration(for: key, hash: hash)
    }

    /// The registration for `key` among the pending ones, for a caller that loaded the published table (with
    /// `tableInSection()`), found it announcing pending registrations, and did not find `key` in it (the
    /// resolve fast path's twin is `pendingEntry(for:hash:)`, which also hands over a kept value's box).
    ///
    /// Also finds `key` in a table published since, which a publish may have moved the pending ones into.
    private func pendingRegistration(for key: RegistrationKey, hash: UInt) -> Registration? {
        // Ordered after the caller's acquiring load of the published word, which the bits were set before.
        let bits = Self.pendingBits(of: hash)
        guard pendingKeyBits.load(ordering: .relaxed) & bits == bits else { return nil }
        return withState { state in lockedLookup(of: key, &state) }
    }

    /// The registration for `key` here, pending or published, looked up under the lock, a kept value's
    /// (`PendingValue`) made now: what a `RegistrationHandle` of a kept value stands for. Not a lookup that
    /// counts toward publishing.
    package func ownRegistration(for key: RegistrationKey) -> Registration? {
        withState { state in state.pending[key] ?? liveRegistration(for: key) }
    }

    /// What the resolve fast path finds for `key` among the pending registrations (see
    /// `pendingRegistration(for:hash:)`): a value kept without its registration (`PendingValue`) is handed over
    /// as its box, and its registration is not made.
    package func pendingEntry(for key: RegistrationKey, hash: UInt) -> PendingEntry? {
        let bits = Self.pendingBits(of: hash)
        guard pendingKeyBits.load(ordering: .relaxed) & bits == bits else { return nil }
        return withState(keepingValue: true) { state -> PendingEntry? in
            // A kept value is the only registration here: nothing else is pending, and nothing is published.
            if let value = state.pendingValue { return value.key == key ? .value(value.box) : nil }
            return lockedLookup(of: key, &state).map(PendingEntry.registration)
        }
    }

    /// A pending registration found by the fast path, or the box of a kept value.
    @usableFromInline
    package enum PendingEntry: Sendable {
        case registration(Registration)
        case value(Unsafe.SendableReference<AnyObject>)
    }

    /// The registration for `key`, pending or in a table published since the caller's load (the lock held,
    /// nothing kept in `pendingValue`); publishes the pending ones once enough lookups had to come here.
    private func lockedLookup(of key: RegistrationKey, _ state: inout State) -> Registration? {
        // A publish may have folded the pending registrations into a newer table since the caller's load.
        guard !state.pending.isEmpty else { return liveRegistration(for: key) }
        let found = state.pending[key] ?? liveRegistration(for: key)
        state.lockedLookups += 1
        // Publishing builds a table and retires the old one, so it waits until that is paid for: a few
        // lookups took the lock (many more while no more are pending than a scan reads at a glance: a
        // request's container, with its few values, resolved from a few dozen times at most, never
        // publishes, so the table it would retire at close never goes to the process-wide batch, whose
        // lock and barrier every thread meets; a long-lived container with few registrations publishes
        // after those lookups, once), and the pending map has grown to a quarter of the table, or lookups
        // took the lock once for every 16 registrations.
        let lookups = state.pending.count > PendingRegistrations.linearLimit
            ? Self.lockedLookupsBeforePublishing : Self.lockedLookupsBeforePublishingFew
        if state.lockedLookups >= lookups,
            state.pending.count * 4 >= liveCount || state.lockedLookups * 16 >= liveCount
        {
            publish(&state)
        }
        return found
    }

    /// Keeps `value` without making its registration (see `PendingValue`), when this container is open and
    /// has nothing registered; `false`, with nothing done, otherwise: the caller then registers it the usual
    /// way.
    @inline(__always)
    package func insertValue(_ value: PendingValue) -> Bool {
        withState(keepingValue: true) { state in
            guard state.pendingValue == nil, state.pending.isEmpty, liveCount == 0, !table.with({ $0.isClosed })
            else { return false }
            state.pendingValue = value
            markPending(value.key)
            publishPending(true)
            return true
        }
    }

    /// Adds `registration`, replacing any registration of the same key, after `check` approves the replaced
    /// one. Returns the replaced registration. `owner` is the container of this registry, named by the
    /// `containerClosed` error once it is closed.
    package func insert(
        _ registration: Registration,
        into owner: Container,
        check: (Registration?) throws(RegistrationError) -> Void
    ) throws(RegistrationError) -> Registration? {
        return try withState { state throws(RegistrationError) -> Registration? in
            if table.with({ $0.isClosed }) { throw RegistrationError.closed(registration, in: owner) }
            let key = registration.key
            let inTable = liveRegistration(for: key)
            let existing = state.pending[key] ?? inTable
            try check(existing)
            if !registration.overridable { holdsFinal.store(true, ordering: .releasing) }
            state.pending.insert(registration)
            markPending(registration.key)
            if inTable != nil {
                state.pendingReplacesPublished = true
                publish(&state)
            } else {
                publishPending(true)
            }
            return existing
        }
    }

    /// Adds several registrations at once, all or none: `check` sees each with the one it replaces
    /// (including one replaced earlier in the same batch) before anything is changed. `owner` as for
    /// `insert(_:into:check:)`.
    package func insert(
        all registrations: [Registration],
        into owner: Container,
        check: (Registration, Registration?) throws(RegistrationError) -> Void
    ) throws(RegistrationError) -> [Registration] {
        return try withState { state throws(RegistrationError) -> [Registration] in
            if let first = registrations.first, table.with({ $0.isClosed }) {
                throw RegistrationError.closed(first, in: owner)
            }
            var staged: [RegistrationKey: Registration] = [:]
            for registration in registrations {
                let key = registration.key
                try check(registration, staged[key] ?? state.pending[key] ?? liveRegistration(for: key))
                staged[key] = registration
            }
            var replaced: [Registration] = []
            var mustPublish = false
            for registration in registrations {
                let key = registration.key
                if let old = state.pending[key] ?? liveRegistration(for: key) { replaced.append(old) }
                if liveRegistration(for: key) != nil {
                    mustPublish = true
                    state.pendingReplacesPublished = true
                }
                if !registration.overridable { holdsFinal.store(true, ordering: .releasing) }
                state.pending.insert(registration)
                markPending(registration.key)
            }
            if mustPublish {
                publish(&state)
            } else {
                publishPending(!state.pending.isEmpty)
            }
            return replaced
        }
    }

    /// Every registration of this container, published or pending, in registration order.
    ///
    /// Usually nothing is pending and this is the published table's array, shared, read without the lock;
    /// otherwise the pending registrations are published first, so that a failed lookup, which keeps this
    /// list for its suggestions, copies no registrations and the next one finds them published.
    package var all: [Registration] {
        if let published = withTable({ table, hasPending in hasPending ? nil : table.registrations }) {
            return published
        }
        return withState { state in
            if !state.pending.isEmpty { publish(&state) }
            return table.with { $0.registrations }
        }
    }

    /// Publishes an empty table that refuses resolution; the container is closed for good. Returns the
    /// registrations it held that have a lifetime strategy (their lifetimes release what they kept), or `nil`
    /// when it already was closed.
    ///
    /// The closed table holds no registrations, so once no reader is inside the old table, the
    /// registrations and the instances only they kept (the `.singleton` ones) are freed with it. Registrations
    /// that were still pending were never in a table a lock-free reader could see: they go at once. The
    /// closed table is a shared one, so closing builds none.
    package func close() -> [Registration]? {
        close(andThen: { _ in })
    }

    /// Closes the registry as `close()` does and, in the same lock section, once it is closed now, runs `extra`
    /// on the container's whole state: what else closing takes under the lock goes with the mark, in one
    /// section. Returns the registrations with a lifetime strategy, or `nil` when the registry already was
    /// closed (and `extra` did not run). (`extra` hands its results out through what it captures: a generic
    /// result would be copied through the runtime's tuple witnesses.)
    func close(andThen extra: (inout ContainerState) -> Void) -> [Registration]? {
        let (registrations, dropped, droppedValue) = withContainerState(keepingValue: true) { container in
            let closed = close(&container.registry)
            if closed.registrations != nil { extra(&container) }
            return closed
        }
        _ = (dropped, droppedValue)
        return registrations
    }

    /// The lock section of `close(andThen:)` for the registry's own state: the registrations with a lifetime
    /// strategy (`nil` when already closed), and the pending registrations and the kept value it took out,
    /// which the caller drops once the lock is given up.
    private func close(_ state: inout State)
        -> (registrations: [Registration]?, dropped: PendingRegistrations, droppedValue: PendingValue?)
    {
        let table = table
        guard !table.with({ $0.isClosed }) else { return (nil, PendingRegistrations(), nil) }
        // A request's container: nothing published (the table is the shared empty one), nothing pending but
        // the value it may keep, no tap. Closing it takes the value out and swaps in the shared closed
        // table, which retires nothing: what the general path below does, without its loops and its copy.
        if table.with({ $0.isShared }), state.pending.isEmpty, state.taps == 0 {
            let droppedValue = state.pendingValue.take()
            state.lockedLookups = 0
            RegistrationTable.closed(observesResolutions: false, isTapped: false).with {
                _ = published.exchange(permanent: $0)
            }
            return ([], PendingRegistrations(), droppedValue)
        }
        // Only registrations with a lifetime strategy have instances to release beyond the held ones; a
        // request's container usually has none, and then no array is built.
        var registrations: [Registration] = []
        table.with { table in
            for registration in table.registrations where registration.scope.hasLifetimeStrategy {
                registrations.append(registration)
            }
        }
        state.pending.forEach { registration in
            if registration.scope.hasLifetimeStrategy { registrations.append(registration) }
        }
        // Taken out whole, and dropped once the lock is given up: the last reference to a registration may
        // be in them, and with it the last reference to whatever its factory captured (a child container,
        // whose `deinit` takes this container's lock). A closed container never registers again.
        var dropped = PendingRegistrations()
        swap(&dropped, &state.pending)
        // A kept value has no lifetime strategy; it goes with the pending ones.
        var droppedValue: PendingValue?
        swap(&droppedValue, &state.pendingValue)
        state.pendingReplacesPublished = false
        state.lockedLookups = 0
        let closed = RegistrationTable.closed(
            observesResolutions: table.with { $0.observesResolutions }, isTapped: state.taps > 0
        )
        closed.with { install($0, &state) }
        return (registrations, dropped, droppedValue)
    }

    package var isClosed: Bool { withTable { $0.isClosed } }

    /// Publishes a table that sends resolves to the slow path, which reports them to resolution behaviours.
    package func observeResolutions() {
        withState { state in
            guard !table.with({ $0.observesResolutions }) else { return }
            publish(&state, observing: true)
        }
    }

    package var observesResolutions: Bool { withTable { $0.observesResolutions } }

    /// Adds (`+1`) or removes (`-1`) a diagnostics tap; while any is attached, resolves take the slow path,
    /// which reports them to the taps. Unlike behaviours, taps come off again.
    package func tap(_ delta: Int) {
        withState { state in
            let wasTapped = state.taps > 0
            state.taps = max(0, state.taps + delta)
            if wasTapped != (state.taps > 0) { publish(&state) }
        }
    }

    package var isTapped: Bool { withTable { $0.isTapped } }

    /// Whether resolves must take the slow path (closed, or observed); one load of the published table.
    @usableFromInline package var needsSlowPath: Bool { withTable { $0.needsSlowPath } }

    /// Whether registrations wait outside the published table (for tests).
    package var hasPending: Bool { withTable { _, hasPending in hasPending } }

    private func publish(_ state: inout State, observing: Bool = false) {
        var (merged, isClosed, observesResolutions) = table.with {
            ($0.registrations, $0.isClosed, $0.observesResolutions)
        }
        if !state.pending.isEmpty {
            if state.pendingReplacesPublished { merged.removeAll { state.pending[$0.key] != nil } }
            merged += state.pending.inOrder
        }
        let table = RegistrationTable(
            merged,
            isClosed: isClosed,
            observesResolutions: observing || observesResolutions,
            isTapped: state.taps > 0
        )
        state.pending.removeAll()
        state.pendingReplacesPublished = false
        state.lockedLookups = 0
        install(table, &state)
    }

    /// The two bits of `pendingKeyBits` a key with this `tableHash` sets (its hash's highest twelve bits).
    private static func pendingBits(of hash: UInt) -> UInt {
        (1 << (hash >> 58)) | (1 << ((hash >> 52) & 63))
    }

    /// Sets `key`'s bits in `pendingKeyBits` (the lock held), before the table that announces it is published.
    @inline(__always)
    private func markPending(_ key: RegistrationKey) {
        let bits = Self.pendingBits(of: key.tableHash)
        if pendingKeyBits.load(ordering: .relaxed) & bits != bits {
            pendingKeyBits.bitwiseOr(bits, ordering: .relaxed)
        }
    }

    /// Makes `table` the live and published table (nothing pending), and retires the one it replaces. The
    /// shared tables (`RegistrationTable.isShared`) are published as permanent, without a retain, and so are
    /// never handed back to be retired.
    private func install(_ table: RegistrationTable, _ state: inout State) {
        let old = table.isShared ? published.exchange(permanent: table) : published.exchange(table)
        if let old { retire(old, &state) }
    }

    /// Keeps `table`, just replaced, until no reader can see it; once the replaced tables hold as many
    /// registrations as the live table, frees those no reader can see any more.
    ///
    /// The barrier that tells which readers could still see a table costs a system call that interrupts
    /// every CPU running the process, so it is not paid for a few registrations: unless the calling thread is
    /// the only one that ever read a table (then no barrier is needed), retired tables holding fewer than
    /// `barrierMinimum` registrations are handed to a process-wide batch, freed together with those of other
    /// containers.
    private func retire(_ table: RegistrationTable, _ state: inout State) {
        if state.retirement == nil { state.retirement = Retirement() }
        retire(table, &state.retirement!)
    }

    /// `retire(_:_:)` once the container keeps a retirement.
    private func retire(_ table: RegistrationTable, _ state: inout Retirement) {
        state.retired.append(table)
        state.retiredRegistrations += table.count
        // Tables that held no registrations free nothing worth a barrier: they wait for the next
        // reclamation, or for the container's end.
        guard state.retiredRegistrations > 0, state.retiredRegistrations >= state.reclaimAt else { return }
        let readers: TableReclamation.Readers
        if let alone = TableReclamation.activeReadersWithoutBarrier() {
            readers = alone
        } else if state.waiting.isEmpty, state.retiredRegistrations < Self.barrierMinimum {
            state.handedOver += state.retired
            state.retired = []
            state.retiredRegistrations = 0
            return
        } else {
            readers = TableReclamation.activeReaders()
        }
        // Readers inside a section now may still see the tables retired so far; later ones cannot.
        state.waiting.append((state.retired, readers))
        state.retired = []
        state.waiting.removeAll { group in
            guard TableReclamation.haveMovedOn(group.readers) else { return false }
            state.freed += group.tables
            return true
        }
        state.retiredRegistrations = state.waiting.reduce(0) { total, group in
            group.tables.reduce(total) { $0 + $1.count }
        }
        // A reader that stays inside a factory keeps what it sees; meanwhile, wait until the retired tables
        // hold twice what they hold now (and at least the live table) before the next barrier.
        state.reclaimAt = state.waiting.isEmpty ? 0 : max(liveCount, state.retiredRegistrations * 2)
    }

    /// Runs `body` under the lock; then, with the lock given up, releases the tables freed meanwhile and
    /// hands the batch the tables handed over.
    @inline(__always)
    private func withState<Result: Sendable, E: Error>(
        keepingValue: Bool = false,
        _ body: (inout State) throws(E) -> Result
    ) throws(E) -> Result {
        try withContainerState(keepingValue: keepingValue) { container throws(E) in try body(&container.registry) }
    }

    /// `withState(keepingValue:_:)` with the container's whole state, for a section that also changes what is
    /// not the registry's (`close(andThen:)`).
    @inline(__always)
    private func withContainerState<Result: Sendable, E: Error>(
        keepingValue: Bool = false,
        _ body: (inout ContainerState) throws(E) -> Result
    ) throws(E) -> Result {
        let (result, freed, handedOver) = try lock.withLock {
            container throws(E) -> (Result, [RegistrationTable], [RegistrationTable]) in
            // Whatever looks at the registrations, but the fast path's lookup and `close()`, sees a kept value
            // as the registration it stands for, made once, the oldest pending one (it was the only one).
            if !keepingValue, let value = container.registry.pendingValue {
                container.registry.pendingValue = nil
                container.registry.pending.insert(value.registration())
            }
            let result = try body(&container)
            guard container.registry.retirement?.hasTablesToHandOut == true else { return (result, [], []) }
            defer {
                container.registry.retirement!.freed = []
                container.registry.retirement!.handedOver = []
            }
            return (result, container.registry.retirement!.freed, container.registry.retirement!.handedOver)
        }
        _ = freed
        if !handedOver.isEmpty { Self.handOver(handedOver) }
        return result
    }

    /// Adds `tables`, retired by one container, to the process-wide batch; once the batch holds
    /// `barrierMinimum` registrations, frees those no reader can see any more, after one barrier for all.
    private static func handOver(_ tables: [RegistrationTable]) {
        let freed = batch.withLock { batch -> [RegistrationTable] in
            batch.retired += tables
            batch.registrations = tables.reduce(batch.registrations) { $0 + $1.count }
            guard batch.registrations >= batch.reclaimAt else { return [] }
            batch.waiting.append((batch.retired, TableReclamation.activeReaders()))
            batch.retired = []
            var freed: [RegistrationTable] = []
            batch.waiting.removeAll { group in
                guard TableReclamation.haveMovedOn(group.readers) else { return false }
                freed += group.tables
                return true
            }
            batch.registrations = batch.waiting.reduce(0) { total, group in
                group.tables.reduce(total) { $0 + $1.count }
            }
            // As for one container: while readers hold tables back, wait for twice as many before the next
            // barrier.
            batch.reclaimAt = max(Self.barrierMinimum, batch.registrations * 2)
            return freed
        }
        _ = freed
    }

    /// How many lookups took the lock since the last publish (for tests).
    package var lockedLookupCount: Int { withState { $0.lockedLookups } }

    /// How many replaced tables are kept for readers right now (for tests of bounded memory).
    package var retiredTableCount: Int {
        withState { state in
            state.retirement.map { $0.retired.count + $0.waiting.reduce(0) { $0 + $1.tables.count } } ?? 0
        }
    }

    /// How many replaced tables of all containers wait in the process-wide batch (for tests).
    package static var batchedTableCount: Int {
        batch.withLock { batch in batch.retired.count + batch.waiting.reduce(0) { $0 + $1.tables.count } }
    }
}
