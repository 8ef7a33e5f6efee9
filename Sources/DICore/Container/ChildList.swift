import CDIThreadLocal
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A container's children, unretained, for closing them with it, for the behaviours added to it later and for
/// diagnostics; and, apart from them, the test containers made from it (`Listing`), so that a registration it
/// replaces reaches their own instances of it. A container leaves the list in its `deinit`.
///
/// A server makes a child of its app container for every request and drops it again, on every core at once. In
/// one list under one lock, every request took that lock twice and wrote the list, and the cores kept taking
/// the lock's and the list's cache lines from each other: two threads making and closing request containers made
/// fewer of them together than one thread alone. So the list is split into shards, each with a lock of its own,
/// and each thread adds to its own shard (`c_di_child_shard_get()`), which the other threads running at that
/// moment hardly ever use. A shard is made when a thread first adds to it: most containers never have a child,
/// and most that have one make one or two shards.
///
/// The list is ordered by when each child was added (`c_di_monotonic_nanoseconds()`), oldest first, whichever
/// threads made them.
///
/// Children and closing meet as they did under one lock. A child is added under its shard's lock, and then
/// asks whether its parent is closed; closing marks the parent closed and then takes each shard's lock to list
/// the children. Either the closing finds the child, or the child finds the mark. A shard is made under the
/// parent's lock, in which closing also asks whether there are shards, so that the same holds for a child that
/// makes its shard. Behaviours added later reach children the same way.
struct ChildList: ~Copyable, Sendable {
    /// The shards made so far; replaced (under the parent's lock) by a copy with one more each time a thread
    /// adds to a shard not made yet. Read without a lock: a replaced copy stays alive, kept by the copy that
    /// replaced it, until the container is freed (see `Unsafe`, atomic references).
    private let shards = Unsafe.AtomicReference<Shards>()

    /// The shard the calling thread adds its children to: where `add(_:at:makingShardsUnder:)` lists them, and
    /// what each child keeps for `remove(_:at:)`.
    static var shardOfThisThread: Int {
        Int(c_di_child_shard_get()) & (Shards.count - 1)
    }

    /// How a container is listed: as a child, or as a test container made from the listing container.
    enum Listing {
        case child, testContainer
    }

    /// Lists `child` in `shard`. A shard not made yet is made under `lock`, the parent's (see above).
    func add(
        _ child: Container, as listing: Listing = .child, at shard: Int, makingShardsUnder lock: Lock<ContainerState>
    ) {
        let stamp = c_di_monotonic_nanoseconds()
        let entry = Entry(child, stamp: stamp)
        let made = shards.load()?.with({ $0.locks[shard] }) ?? lock.withLock { _ in
            // Made here, or by another thread since the load above; never taken out again.
            let current = shards.load()?.with { $0 }
            if let made = current?.locks[shard] { return made }
            let grown = Shards(adding: shard, to: current)
            _ = shards.exchange(grown)
            return grown.locks[shard].unsafelyUnwrapped
        }
        switch listing {
        case .child: made.withLock { $0.entries.append(entry) }
        case .testContainer: made.withLock { $0.testContainers.append(entry) }
        }
    }

    /// Takes `child` out of `shard`, where it was added; from its `deinit`, before its memory can be freed.
    func remove(_ child: Unsafe.Unowned<Container>, as listing: Listing = .child, at shard: Int) {
        shards.load()?.with { $0.locks[shard] }?.withLock { shard in
            switch listing {
            case .child:
                if let index = shard.entries.lastIndex(where: { $0.child === child }) {
                    shard.entries.remove(at: index)
                }
            case .testContainer:
                if let index = shard.testContainers.lastIndex(where: { $0.child === child }) {
                    shard.testContainers.remove(at: index)
                }
            }
        }
    }

    /// Whether a child (or a test container) was ever added: what closing asks under its container's lock (see
    /// above).
    var mayHaveChildren: Bool { !shards.isEmpty }

    /// The children (or test containers) that are alive, oldest first. One whose deinitialisation has begun is
    /// left out.
    func all(_ listing: Listing) -> [Container] {
        guard let locks = shards.load()?.with({ $0.locks }) else { return [] }
        var found: [(child: Container, stamp: UInt64)] = []
        for lock in locks {
            // Every listed child's memory is allocated while its shard's lock is held: its `deinit` takes it
            // out under that lock first.
            found += lock?.withLock { shard in
                (listing == .child ? shard.entries : shard.testContainers).compactMap { entry in
                    entry.child.retainedUnlessDeinitialising().map { (child: $0, stamp: entry.stamp) }
                }
            } ?? []
        }
        return found.sorted { $0.stamp < $1.stamp }.map(\.child)
    }

    /// How many children are listed (alive, or in their `deinit`).
    var count: Int {
        let locks = shards.load()?.with { $0.locks } ?? []
        return locks.reduce(0) { count, lock in count + (lock?.withLock { $0.entries.count } ?? 0) }
    }

    /// One listed child (or test container) and when it was added.
    struct Entry {
        let child: Unsafe.Unowned<Container>
        let stamp: UInt64

        init(_ child: Container, stamp: UInt64) {
            self.child = Unsafe.Unowned(child)
            self.stamp = stamp
        }
    }

    /// One shard's entries, and room that keeps the next shard's lock out of the cache lines this one's lock
    /// and entries are written in: shards made one after the other would otherwise lie side by side in memory.
    struct Shard {
        /// The children.
        var entries: [Entry] = []
        /// The test containers made from the container, apart from its children.
        var testContainers: [Entry] = []
        private let room: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    }

    /// The shards made so far: a lock and its entries each, `nil` for a shard no thread has added to. A parent
    /// with a child or two makes one or two, not all of them.
    final class Shards: Sendable {
        /// A power of two, four per processor (16 at least, 64 at most), so that the threads running at once
        /// (a server's event loops and its tasks' threads, a few per processor) rarely share one.
        static let count: Int = {
            let processors = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
            var count = 16
            while count < processors * 4, count < 64 { count <<= 1 }
            return count
        }()

        let locks: [Lock<Shard>?]
        /// The copy this one replaced, which a reader may still be using unretained: kept until the container
        /// is freed (at most one copy per shard).
        private let replaced: Shards?

        /// `replaced`'s shards, the same locks, and a new one for `shard`.
        init(adding shard: Int, to replaced: Shards?) {
            var locks = replaced?.locks ?? Array(repeating: nil, count: Self.count)
            locks[shard] = Lock(Shard())
            self.locks = locks
            self.replaced = replaced
        }
    }
}
