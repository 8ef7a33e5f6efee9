/// Test containers: private copies of a base container's graph, for one test.
///
/// A test container is a root (`parent == nil`) that also resolves everything its base chain registers, as
/// the base's registrations stand at resolve time, as the base resolves it, with the test's own registrations
/// in front of every level: it keeps its own instance of every lifetime that keeps instances (the base's
/// `.singleton` slot is never read or filled), so the test's overrides reach the dependencies of the app's
/// singletons. A registration of an ancestor of the base gets its dependencies as that ancestor does, in a view
/// of the test container (see `TestContainerLink`). Nothing in the base changes. Making one copies no
/// registration.
extension Container {
    /// Makes a test container over `base`.
    ///
    /// - Parameters:
    ///   - base: The container whose graph the test container resolves; the base and its ancestors are read,
    ///     never changed.
    ///   - name: The name printed in diagnostics.
    ///   - resolvedAfterClose: Called when anything asks this test container (or one of its descendants) to
    ///     resolve after it was closed: work that outlived its test.
    package static func makeTestContainer(
        from base: Container,
        name: String,
        resolvedAfterClose: (@Sendable (_ service: String) -> Void)? = nil
    ) -> Container {
        Container(
            name: name,
            tags: base.visibleTags,
            testing: TestContainerLink(base: base, resolvedAfterClose: resolvedAfterClose)
        )
    }

    /// Whether this container is a test container or hangs below one.
    package var isInTestContainer: Bool {
        nearest { $0.testing != nil } != nil
    }

    /// The tags of this container, its ancestors and, through test containers, their bases: what
    /// `.matching(_:)` can find from here. A test container carries them so that it builds its own instance
    /// of a `.matching` service of its base.
    var visibleTags: Set<String> {
        var tags = Set<String>()
        var current: Container? = self
        while let container = current {
            tags.formUnion(container.tags)
            current = container.parent
        }
        return tags
    }

    /// Each container whose registrations this one sees, nearest first, with the container that owns what is
    /// built from them (a test container, or its view of the level, owns what it resolves through its base).
    package var registrationSources: [(container: Container, owner: Container)] {
        var sources: [(container: Container, owner: Container)] = []
        forEachRegistrationSource { sources.append(($0, $1)) }
        return sources
    }

    /// Calls `body` with each of `registrationSources`, without making the list: a failed lookup, which lists
    /// what it could see, pays no array for it.
    func forEachRegistrationSource(_ body: (_ container: Container, _ owner: Container) -> Void) {
        var current: Container? = self
        while let container = current {
            body(container, container)
            current = container.parent
            guard let (link, test, views) = container.throughBase else { continue }
            // A view looks through its test container's own registrations first.
            if test !== container { body(test, test) }
            for position in link.sources.indices where link.looksThrough(position) {
                body(link.sources[position], views.owner(of: position, in: test))
            }
        }
    }

    /// The registration for `key` among what this test container (or view) resolves through its base, with
    /// the container that resolves it, up to the first closed container of the base chain (a closed container
    /// resolves nothing, not even what its open ancestors register); `nil` for any other container.
    func lookupThroughBase(_ key: RegistrationKey) -> (Registration, Container)? {
        guard let (link, test, views) = throughBase else { return nil }
        if test !== self, let found = test.registry.registration(for: key) { return (found, test) }
        for (position, source) in link.sources.enumerated() {
            if source.isClosed { return nil }
            guard link.looksThrough(position) else { continue }
            if let found = source.registry.registration(for: key) {
                return (found, views.owner(of: position, in: test))
            }
        }
        return nil
    }

    /// The registrations this container resolves as its own: its own and, for a test container, those of its
    /// base chain that it does not shadow (nearest first, each key once, up to the first closed container, which
    /// resolves nothing). What diagnostics model a container with, unless it is a test container whose base
    /// chain has levels that see different registrations (`testLevels`).
    package var registrationsTreatedAsOwn: [Registration] {
        let own = registry.all
        guard let link = testing else { return own }
        var seen = Set(own.map(\.key))
        var result = own
        for container in link.sources {
            if container.isClosed { break }
            for registration in container.registry.all where seen.insert(registration.key).inserted {
                result.append(registration)
            }
        }
        return result
    }

    /// How diagnostics model this test container when its base is below the app (two levels or more of its base
    /// chain register, up to the first closed container): its own registrations (and those of test containers
    /// it was made through), which every level sees first, then each level's view with the registrations of
    /// that level that the test's own do not replace, the app's level first. `nil` for any other container,
    /// which `registrationsTreatedAsOwn` models.
    package var testLevels: (own: [Registration], levels: [(view: Container, registrations: [Registration])])? {
        guard let link = ownTestLink else { return nil }
        var own = registry.all
        var levels: [(view: Container, registrations: [Registration])] = []
        var overridden = Set(own.map(\.key))
        for (position, source) in link.sources.enumerated() {
            if source.isClosed { break }
            if levels.isEmpty && source.testing != nil {
                for registration in source.registry.all where overridden.insert(registration.key).inserted {
                    own.append(registration)
                }
                continue
            }
            let registrations = source.registry.all.filter { !overridden.contains($0.key) }
            levels.append((link.owner(of: position, in: self), registrations))
        }
        guard levels.count > 1 else { return nil }
        return (own, levels.reversed())
    }

    /// The views this test container has made, nearest level first: they hold the instances built from the
    /// registrations of its base's ancestors.
    package var testViews: [Container] {
        guard let link = ownTestLink else { return [] }
        return link.madeViews
    }

    /// Whether this test container or view resolves through `other`, the test container it belongs to or one
    /// of its views: `other` is the test container (whose registrations come first at every level), or the
    /// view of a level at or above this one's, or of a test container among the sources.
    func seesInItsTest(_ other: Container) -> Bool {
        guard let test = throughBase?.test, other.testContainerOfView === test else { return false }
        guard let otherStart = other.testing?.viewing?.start else { return true }
        return testing?.looksThrough(otherStart) ?? true
    }

    /// The container that holds a `.matching(tag)` instance asked of this test container or view, which has
    /// the tag somewhere on its levels: itself, or its test container's view of the nearest level with the tag.
    func levelTagged(_ tag: String) -> Unsafe.Unowned<Container> {
        guard let (link, test, views) = throughBase else { return Unsafe.Unowned(self) }
        for (position, source) in link.sources.enumerated()
        where link.looksThrough(position) && source.testing == nil && source.tags.contains(tag) {
            // Kept alive by the test container, which is resolving.
            return Unsafe.Unowned(views.owner(of: position, in: test))
        }
        return Unsafe.Unowned(self)
    }

    /// Every view of this test container, nearest level first, made now where not made yet: one for each level
    /// of its base (see `TestContainerLink`). What a trace taps, so that it sees every level's resolves.
    package func makeTestViews() -> [Container] {
        guard let link = ownTestLink else { return [] }
        return link.sources.indices.compactMap { position in
            let owner = link.owner(of: position, in: self)
            return owner === self ? nil : owner
        }
    }

    /// Marks this test container's views closed, so that none is made from now on, and returns those made.
    package func closeTestViews() -> [Container] {
        guard let link = ownTestLink else { return [] }
        return link.closeViews()
    }

    /// The slot in which this test container keeps its own instance of a `.singleton` registration.
    func testSlot(for registration: Registration) -> InstanceSlot {
        slots.slot(for: registration)
    }

    /// Tells the nearest test container (self or an ancestor) that it was asked to resolve after it closed: its
    /// test has ended. A closed container below an open test container is the test's own doing, refused with the
    /// error alone.
    func reportResolvedAfterTest(_ type: Any.Type, name: String?) {
        var current: Container? = self
        while let container = current {
            if let report = container.testing?.resolvedAfterClose {
                if container.isClosed { report(ServiceName.describe(type, name: name)) }
                return
            }
            current = container.parent
        }
    }
}

extension Container {
    /// The path of the resolution running on this thread or task, from the top-level request; empty outside
    /// a resolve. For messages of test helpers.
    package static var activeResolutionPath: [PathElement] {
        let path = ResolutionStack.current.path
        if !path.isEmpty { return path }
        return AsyncResolution.currentIfActive?.path ?? []
    }
}
