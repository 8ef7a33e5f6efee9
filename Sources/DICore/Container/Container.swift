import Synchronization

/// A node in a tree of dependency containers: it resolves from its own registrations first, then its
/// parent's, up to the root.
///
/// ```swift
/// let app = Container(name: "app")
/// try app.register(Logger.self, scope: .singleton) { _ in ConsoleLogger() }
///
/// let checkout = app.child(name: "checkout")          // sees everything `app` registers
/// try checkout.register(PaymentService.self) { r in StripePayments(logger: try r.resolve(Logger.self)) }
///
/// let payments = try checkout.resolve(PaymentService.self)
/// ```
///
/// A child never changes its parent: registering in a child only shadows the parent's registration for that
/// child and its descendants. Siblings never see each other.
///
/// `Container` is `Sendable`; every method is safe to call from any thread. Resolution reads an immutable
/// table without a lock, so resolving a built singleton costs a few nanoseconds; no lock is held while a
/// factory runs.
public final class Container: Sendable {
    /// The name printed in diagnostics (`checkout → app`).
    public let name: String
    /// The container this one falls back to; `nil` for a root.
    public var parent: Container? { parentReference?.with { $0 } }
    /// The parent, unretained: the walks up the ancestors read it without a reference count (this container
    /// keeps it alive).
    @inlinable var parentReference: Unsafe.Unowned<Container>? { parentKeeper.load() }
    /// Keeps the parent alive: the retain taken when the child is made, given back in `deinit` by
    /// `release(parent:)`, which frees a chain of ancestors one after another rather than nested.
    @usableFromInline let parentKeeper: Unsafe.AtomicReference<Container>
    /// Tags that `.matching(_:)` lifetimes look for.
    public let tags: Set<String>
    /// Set only on a test container: the base whose graph it resolves as its own (`makeTestContainer`).
    package let testing: TestContainerLink?

    @usableFromInline package let registry: Registry
    /// Its registrations' state, children, the instances it holds, its lifetimes' slots and its behaviours,
    /// under one lock; taken only by `Registry`, `SlotStore`, `BehaviorStore` and the methods below.
    let state: Lock<ContainerState>
    /// Instance slots of lifetimes that keep one instance per container (for `DIScopes`).
    package var slots: SlotStore { SlotStore(owner: Unsafe.Unowned(self)) }
    /// The behaviours added to this container (`addBehavior(_:)`); descendants inherit them.
    package var behaviors: BehaviorStore { BehaviorStore(state: state) }
    /// The first few slots of `slots`, kept here and used without the lock (see `KeptCells`).
    let cells = KeptCells()
    /// Its children, and the test containers made from it, each listed in the shard of the thread that made it
    /// (see `ChildList`).
    let childList = ChildList()
    /// The shard of its parent's `childList` it is listed in, or, for a test container, of its base's.
    private let shard: Int

    /// Creates a root container.
    ///
    /// - Parameters:
    ///   - name: The name printed in errors and graph dumps.
    ///   - tags: Tags that `.matching(_:)` lifetimes look for.
    public convenience init(name: String = "root", tags: Set<String> = []) {
        self.init(name: name, tags: tags, parent: nil, testing: nil, shard: 0)
        RootList.add(self)
    }

    /// A test container: a root that resolves `link.base`'s graph as if it were registered here.
    package convenience init(name: String, tags: Set<String>, testing link: TestContainerLink) {
        let shard = ChildList.shardOfThisThread
        self.init(name: name, tags: tags, parent: nil, testing: link, shard: shard)
        link.base.childList.add(self, as: .testContainer, at: shard, makingShardsUnder: link.base.state)
    }

    /// A view of a test container (see `TestContainerLink`): a root listed nowhere, closed from the start when
    /// its test container has closed — also to what a build placed in it would hold, which is then disposed.
    convenience init(name: String, tags: Set<String>, viewing link: TestContainerLink, closed: Bool) {
        self.init(name: name, tags: tags, parent: nil, testing: link, shard: 0)
        if closed { close() }
    }

    /// Every container is made here: a root (`parent` `nil`), a child, or a test container (`testing`).
    @inline(__always)
    private init(name: String, tags: Set<String>, parent: Container?, testing: TestContainerLink?, shard: Int) {
        self.name = name
        self.tags = tags
        parentKeeper = Unsafe.AtomicReference(parent)
        self.testing = testing
        self.shard = shard
        let state = Lock(ContainerState())
        self.state = state
        registry = Registry(lock: state)
    }

    deinit {
        // Unlisted under its list's lock before this container's memory can be freed, so the parent (the base,
        // the `RootList`) never reads a freed container (see `children`).
        guard let parent = parentReference else { return Self.unlistRoot(Unsafe.Unowned(self), at: shard) }
        Self.unlist(Unsafe.Unowned(self), at: shard, from: parent)
        Self.release(parent: parentKeeper.exchange(nil))
    }

    /// Gives back a freed container's reference to its parent. When that frees the parent too, the parent's own
    /// parent is held here while it is freed, so that its `deinit` gives back a reference that is not the last:
    /// a chain of containers that only the innermost kept alive is freed one after another, not nested (a
    /// hundred thousand levels would overflow the stack).
    ///
    /// (What the compiler generates for a stored `Container?` does the same, with a retain and a release of the
    /// parent more: the parent is every request's app container, and each count written to it is a cache line
    /// taken from the other cores.)
    @inline(never)
    private static func release(parent: consuming Container?) {
        var next = parent
        while var current = next.take() {
            // Not the last reference: giving it back frees nothing.
            guard isKnownUniquelyReferenced(&current) else { return }
            next = current.parent
        }
    }

    /// Takes `child` out of `parent`'s list of children. Both unretained, and not inlined into `deinit`,
    /// where the optimiser retained the parent around the call: the parent is shared by every request's
    /// container, and each count written to it is a cache line taken from the other cores. (The child keeps
    /// the parent until its `deinit` ends.)
    @inline(never)
    private static func unlist(
        _ child: Unsafe.Unowned<Container>, at shard: Int, from parent: Unsafe.Unowned<Container>
    ) {
        parent.with { $0.childList.remove(child, at: shard) }
    }

    /// Takes a test container out of its base's list, where it was listed when it was made, and another root out
    /// of the `RootList`. Not inlined into `deinit`, which every request's container runs.
    @inline(never)
    private static func unlistRoot(_ root: Unsafe.Unowned<Container>, at shard: Int) {
        root.with { root in
            guard let link = root.testing else { return RootList.remove(Unsafe.Unowned(root)) }
            // A view is listed nowhere.
            guard link.viewing == nil else { return }
            link.base.childList.remove(Unsafe.Unowned(root), as: .testContainer, at: shard)
        }
    }

    /// Creates a child that resolves through this container and can shadow any of its registrations.
    ///
    /// ```swift
    /// let session = app.child(name: "session", tags: ["session"])
    /// try session.register(User.self, scope: .singleton) { _ in currentUser }
    /// ```
    ///
    /// - Parameters:
    ///   - name: The name printed in errors and graph dumps.
    ///   - tags: Tags that `.matching(_:)` lifetimes look for.
    /// A child of a closed container is closed from the start: it refuses to resolve, to register and to
    /// make children of its own (`containerClosed`), so that nothing the closed container disposed is handed
    /// out through it.
    public func child(name: String, tags: Set<String> = []) -> Container {
        let shard = ChildList.shardOfThisThread
        let child = Container(name: name, tags: tags, parent: self, testing: nil, shard: shard)
        childList.add(child, at: shard, makingShardsUnder: state)
        child.inheritBehaviors(from: self)
        // `close()` marks this container closed before it lists its children, so a child added concurrently
        // is either listed or sees the mark here (see `ChildList`).
        if isClosed { _ = child.registry.close() }
        return child
    }

    /// Runs `body` on the instances this container holds, under its lock: what a slot of its slot store
    /// (`InstanceSlot(keptBy:)`) records its instance in when it stores it. `body` must not call back into the
    /// container.
    func withHeldInstances<Result>(_ body: (inout HeldInstances) -> sending Result) -> sending Result {
        state.withLock { body(&$0.held) }
    }

    /// Runs `body` under this container's lock, without its state: what a slot of its slot store
    /// (`InstanceSlot(keptBy:)`) guards its box with. `body` must not call back into the container.
    package func withStateLocked<Result>(_ body: () -> sending Result) -> sending Result {
        state.withLock { _ in body() }
    }

    /// Whether `tag` is one of `tags`: compared with each of a few tags (a request's container has one or
    /// two), which costs less than hashing `tag` for the set's lookup.
    package func isTagged(_ tag: String) -> Bool {
        tags.count <= 4 ? tags.contains { $0 == tag } : tags.contains(tag)
    }

    /// The nearest of this container and its ancestors that has `tag`, unretained (see `nearest(_:)`): where a
    /// `.matching(tag)` instance asked of this container is held. In a test container's tree, the test
    /// container or its view of the nearest level of its base that has the tag, as the base would hold it there.
    package func nearestTagged(_ tag: String) -> Unsafe.Unowned<Container>? {
        guard let tagged = nearest({ $0.isTagged(tag) }) else { return nil }
        if tagged.with({ $0.testing == nil }) { return tagged }
        return tagged.with { $0.levelTagged(tag) }
    }

    /// How many children this container lists (alive, or in their `deinit`).
    package var childCount: Int { childList.count }

    /// The children of this container that are still alive, oldest first.
    package var children: [Container] { childList.all(.child) }

    /// The test containers made from this container that are still alive, oldest first: they resolve its graph,
    /// but are not its children.
    package var testContainers: [Container] { childList.all(.testContainer) }

    /// Whether `other` is this container or one of its ancestors, so that its registrations apply here.
    ///
    /// In a test container's tree, the test container and each of its views (see `TestContainerLink`) see the
    /// test container and the views of the levels they resolve through, as each level sees its ancestors.
    package func sees(_ other: Container) -> Bool {
        if nearest({ $0 === other }) != nil { return true }
        guard other.testing != nil else { return false }
        return nearest { $0.testing != nil && $0.seesInItsTest(other) } != nil
    }

    /// The nearest of this container and its ancestors for which `matches` is true, or `nil`; unretained,
    /// valid while this container is (it keeps its ancestors alive).
    ///
    /// The walk does no reference counting (each container keeps its ancestors alive): ancestors are shared
    /// by every child, a server's by every request, and a retain of an object other threads retain too is an
    /// atomic write to a contended cache line.
    package func nearest(_ matches: (Container) throws -> Bool) rethrows -> Unsafe.Unowned<Container>? {
        var current = Unsafe.Unowned(self)
        while true {
            if try current.with(matches) { return current }
            guard let parent = current.with({ $0.parentReference }) else { return nil }
            current = parent
        }
    }

    /// This container, then its parent, up to the root.
    package var ancestry: [Container] {
        var result: [Container] = []
        var current: Container? = self
        while let container = current {
            result.append(container)
            current = container.parent
        }
        return result
    }

    /// The root of this container's tree.
    package var root: Container { parent?.root ?? self }

    /// Whether `close()` was called: a closed container refuses to resolve and to register.
    public var isClosed: Bool { registry.isClosed }

    /// Records that this container holds a built instance (disposed, newest first, when it is closed).
    ///
    /// - Throws: `containerClosed` when the container was closed while the instance was being built: the
    ///   instance is disposed at once instead of being handed out by a closed container.
    package func hold(_ slot: InstanceSlot, of registration: Registration, requested: Any.Type) throws {
        guard !tryHold(slot, of: registration) else { return }
        Self.dispose([HeldInstance(slot: slot, registration: registration)])
        throw closedWhileBuildingError(requested, registration)
    }

    /// Records that this container holds a built instance, as `hold` does; `false`, leaving the instance to
    /// the caller to dispose of, when the container was closed while it was being built.
    func tryHold(_ slot: InstanceSlot, of registration: Registration) -> Bool {
        guard slot.retention == .strong else { return true }
        return state.withLock { state in
            guard !state.held.isClosed else { return false }
            state.held.instances.appendMakingRoomForAFew(
                HeldInstance(slot: slot, registration: registration, build: cells.nextBuild())
            )
            return true
        }
    }

    /// Throws `containerClosed` when this container, which keeps the instance of `registration`, has closed:
    /// what a waiter asks once another's build ends (`InstanceSlot`). One atomic load: the flag the close sets
    /// in the lock section that takes the held instances.
    func refuseIfClosed(_ requested: Any.Type, _ registration: Registration) throws {
        if cells.isClosed.load(ordering: .acquiring) { throw closedWhileBuildingError(requested, registration) }
    }

    /// The instances this container holds, oldest first; each slot appears once.
    package var heldInstances: [HeldInstance] {
        state.withLock { state in Self.distinct(state.held.instances) }
    }

    /// Forgets the held instances of `registration` (replaced or reset) and returns them.
    package func releaseHeld(of registration: Registration) -> [HeldInstance] {
        state.withLock { state in
            let released = state.held.instances.filter { $0.registration === registration }
            state.held.instances.removeAll { $0.registration === registration }
            return released
        }
    }

    /// Forgets every instance this container holds, and refuses to hold more (used when the container is
    /// closed): returns those of the held list, oldest first, and takes those in the cells into `kept`, oldest
    /// build first; both in one lock section. The held list may name a slot twice (see `distinct(_:)`).
    @inline(__always)
    func releaseAllHeld(keeping kept: inout KeptInstances) -> [HeldInstance] {
        state.withLock { state in Self.takeAllHeld(&state, from: cells, keeping: &kept) }
    }

    /// The lock section of `releaseAllHeld(keeping:)`, for a caller that holds the lock of `state`, whose
    /// cells are `cells`.
    @inline(__always)
    static func takeAllHeld(
        _ state: inout ContainerState, from cells: borrowing KeptCells, keeping kept: inout KeptInstances
    ) -> [HeldInstance] {
        state.held.isClosed = true
        var taken: [HeldInstance] = []
        swap(&taken, &state.held.instances)
        cells.close(into: &kept, numbered: !taken.isEmpty)
        return taken
    }

    /// `instances` with each slot once, oldest first. A few (a request's container holds two or three) are
    /// compared directly, with no set to build; fewer than two have no repeats.
    static func distinct(_ instances: [HeldInstance]) -> [HeldInstance] {
        if instances.count < 2 { return instances }
        if instances.count <= 8 {
            // Usually each slot is there once, and then the list itself is the answer.
            let repeats = instances.indices.contains { position in
                instances[..<position].contains { $0.slot === instances[position].slot }
            }
            guard repeats else { return instances }
            var result: [HeldInstance] = []
            result.reserveCapacity(instances.count)
            for instance in instances where !result.contains(where: { $0.slot === instance.slot }) {
                result.append(instance)
            }
            return result
        }
        var seen = Set<ObjectIdentifier>()
        return instances.filter { seen.insert(ObjectIdentifier($0.slot)).inserted }
    }
}
