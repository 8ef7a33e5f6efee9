/// The roots made with `Container(name:tags:)` that are alive, unretained, so that a lookup that fails in
/// `Container.shared`'s tree can say which other tree registers the service (`LookupContext`): the slip of
/// registering in an app's own root and resolving from `Container.current` where nothing was bound.
///
/// A root is listed when it is made and leaves the list in its `deinit`, under the list's lock, before its
/// memory can be freed, as a child leaves its parent's list (see `ChildList`, and `Unsafe`, "Why it is sound").
/// A weak list would give every root a side table, which slows every later retain and release of it; an app's
/// root is retained by every request. Roots are made at start-up and per test, not per request, so one lock
/// serves them all. Test containers are not listed: a failure in one test must not name another test's graph.
enum RootList {
    private static let entries = Lock<[Unsafe.Unowned<Container>]>([])

    /// Lists a root that was just made.
    static func add(_ root: Container) {
        let entry = Unsafe.Unowned(root)
        entries.withLock { $0.append(entry) }
    }

    /// Takes `root` out of the list; from its `deinit`, before its memory can be freed.
    static func remove(_ root: Unsafe.Unowned<Container>) {
        entries.withLock { entries in
            if let index = entries.lastIndex(where: { $0 === root }) { entries.remove(at: index) }
        }
    }

    /// Runs `body` on each listed root that is alive, oldest first, holding it only while `body` runs.
    ///
    /// Every root is retained for its own call only, so that an error being printed keeps no other tree's root
    /// alive beyond a moment (whoever drops its last reference meanwhile sees it freed a moment later, by this
    /// thread), and `body` runs outside the list's lock: it may look up registrations, which can free retired
    /// tables, and a root freed by that would need the lock to leave the list.
    static func forEach(_ body: (Container) -> Void) {
        let listed = entries.withLock { $0 }
        for entry in listed {
            // Still listed: its memory is allocated while the lock is held (a root leaves the list in its deinit).
            let root = entries.withLock { entries in
                entries.contains { $0 === entry } ? entry.retainedUnlessDeinitialising() : nil
            }
            if let root { body(root) }
        }
    }
}
