/// The roots made with `Container(name:tags:)` that are alive, unretained, so that a lookup that fails in
/// `Container.shared`'s tree can say which other root registers the service (`LookupContext`): the slip of
/// registering in an app's own root and resolving from `Container.current` where nothing was bound.
///
/// A root is listed when it is made and leaves the list in its `deinit`, under the list's lock, before its
/// memory can be freed, as a child leaves its parent's list (see `ChildList`, and `Unsafe`, "Why it is sound").
/// A weak list would give every root a side table, which slows every later retain and release of it; an app's
/// root is retained by every request. Roots are made at start-up and per test, not per request, so one lock
/// serves them all. Test containers are not listed: a failure in one test must not name another test's graph.
enum RootList {
    /// The listed roots by address, each with the number it was listed under (its place in the order).
    private static let entries = Lock(Entries())

    private struct Entries {
        var roots: [ObjectIdentifier: (root: Unsafe.Unowned<Container>, number: UInt64)] = [:]
        var listed: UInt64 = 0
    }

    /// How many roots `forEach(_:)` looks at, at most: the oldest, where an app's root is.
    static let lookLimit = 1_000

    /// Lists a root that was just made.
    static func add(_ root: Container) {
        let entry = Unsafe.Unowned(root)
        entries.withLock { entries in
            entries.listed += 1
            entries.roots[ObjectIdentifier(root)] = (entry, entries.listed)
        }
    }

    /// Takes `root` out of the list; from its `deinit`, before its memory can be freed.
    static func remove(_ root: Unsafe.Unowned<Container>) {
        let id = root.with { ObjectIdentifier($0) }
        _ = entries.withLock { $0.roots.removeValue(forKey: id) }
    }

    /// Runs `body` on each listed root that is alive (the oldest `lookLimit`, oldest first), holding it only
    /// while `body` runs.
    ///
    /// Every root is retained for its own call only, so that an error being printed keeps no other tree's root
    /// alive beyond a moment (whoever drops its last reference meanwhile sees it freed a moment later, by this
    /// thread), and `body` runs outside the list's lock: it may look up registrations, which can free retired
    /// tables, and a root freed by that would need the lock to leave the list.
    static func forEach(_ body: (Container) -> Void) {
        let listed = entries.withLock { entries in
            entries.roots.map { (id: $0.key, number: $0.value.number) }
        }
        for (id, number) in listed.sorted(by: { $0.number < $1.number }).prefix(lookLimit) {
            // Still listed under that number: its memory is allocated while the lock is held (a root leaves the
            // list in its deinit; a root made since at a freed one's address has another number).
            let root = entries.withLock { entries in
                entries.roots[id].flatMap { $0.number == number ? $0.root.retainedUnlessDeinitialising() : nil }
            }
            if let root { body(root) }
        }
    }
}
