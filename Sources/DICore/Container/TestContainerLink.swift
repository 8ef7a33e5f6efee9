/// What makes a container a test container: the base it resolves through, the containers whose registrations
/// that gives it, and who hears of late resolves.
///
/// A test container resolves its base's graph as the base does, with the test's own registrations put in front
/// of every level of it. A registration of an ancestor of the base (an app singleton, seen from a test made from
/// a feature container) gets its dependencies as that ancestor does, from the test's registrations and then the
/// ancestor and its own ancestors, never from the containers below it. That is the same rule that keeps a
/// parent's singleton from capturing a child's override. When the base chain has two levels or more, each level
/// (the base's too) is resolved in a *view* of the test container: a container of its own, made on first use,
/// which keeps the instances built from that level's registrations and is closed with the test container, after
/// it.
package final class TestContainerLink: Sendable {
    /// The container whose graph the test container resolves; for a view, the level it resolves from.
    package let base: Container
    let resolvedAfterClose: (@Sendable (String) -> Void)?
    /// Every container whose registrations the test container resolves after its own, nearest first: the base
    /// and its ancestors, where a test container among them brings its own registrations and then its base
    /// chain. A view shares its test container's.
    let sources: [Container]
    /// Whether two containers or more of `sources` are not test containers: levels that see different
    /// registrations, each resolved in a view.
    private let hasLevels: Bool
    /// For a view: the test container it belongs to (weak, as a view may be captured by a factory and outlive
    /// it) and the position in `sources` it resolves from.
    let viewing: (test: Weak, start: Int)?
    /// The views made so far, by the position in `sources` each resolves from; only a test container's own link
    /// keeps them.
    private let views: Lock<Views>

    struct Weak: Sendable {
        weak let container: Container?
    }

    private struct Views: ~Copyable {
        var byStart: [Int: Container] = [:]
        /// Set when the test container closes: a view made afterwards is closed from the start.
        var isClosed = false
    }

    /// The link of a test container made from `base`.
    init(base: Container, resolvedAfterClose: (@Sendable (String) -> Void)?) {
        self.base = base
        self.resolvedAfterClose = resolvedAfterClose
        sources = Self.sources(from: base)
        hasLevels = sources.count { $0.testing == nil } > 1
        viewing = nil
        views = Lock(Views())
    }

    /// The link of the view of `test` that resolves from `sources[start]`.
    private init(viewOf test: Container, link: TestContainerLink, start: Int) {
        base = link.sources[start]
        resolvedAfterClose = link.resolvedAfterClose
        sources = link.sources
        hasLevels = link.hasLevels
        viewing = (Weak(container: test), start)
        views = Lock(Views())
    }

    /// `base` and its ancestors, each test container among them followed by its own sources.
    private static func sources(from base: Container) -> [Container] {
        var result: [Container] = []
        for container in base.ancestry {
            result.append(container)
            if let link = container.testing { result += link.sources }
        }
        return result
    }

    /// Whether a registration of `sources[position]` is resolved in the test container itself: always when the
    /// base chain has one level (a test made from the app's root: no level can see less than another); else
    /// when it is a test container's own (an override, as the test's own registrations are) and no other
    /// container of the base chain comes before it. Every other level is resolved in a view, the base's too, so
    /// that a view can tell the test's own registrations, which every level sees, from the base's, which its
    /// ancestors do not.
    private func resolvesInTest(_ position: Int) -> Bool {
        !hasLevels || !sources[...position].contains { $0.testing == nil }
    }

    /// The container that resolves the registrations of `sources[position]` for `test` (whose link this is):
    /// `test` itself, or its view for that level, made on first use.
    func owner(of position: Int, in test: Container) -> Container {
        assert(viewing == nil, "a test container's views are made and kept by the test container's own link")
        if resolvesInTest(position) { return test }
        return views.withLock { views in
            if let view = views.byStart[position] { return view }
            let level = sources[position]
            let view = Container(
                // The base's level is the test container as people think of it.
                name: position == 0 ? test.name : "\(test.name) as \(level.name)",
                tags: level.visibleTags,
                viewing: TestContainerLink(viewOf: test, link: self, start: position),
                closed: views.isClosed
            )
            // A behaviour added to the test container meanwhile reaches the view through this check or
            // through `testViews` (as a child's inheritance works).
            view.inheritBehaviors(from: test)
            views.byStart[position] = view
            return view
        }
    }

    /// The views made so far, nearest level first, marked so that none is made after: what closing the test
    /// container closes after its own instances.
    func closeViews() -> [Container] {
        views.withLock { views in
            views.isClosed = true
            return Self.nearestFirst(views.byStart)
        }
    }

    /// The views made so far, nearest level first.
    var madeViews: [Container] {
        views.withLock { views in Self.nearestFirst(views.byStart) }
    }

    private static func nearestFirst(_ byStart: [Int: Container]) -> [Container] {
        byStart.sorted { $0.key < $1.key }.map(\.value)
    }

    /// Whether the container of this link looks through `sources[position]`: every position for a test
    /// container; for a view, the test containers among the sources before its level (their registrations are
    /// overrides, as the test's own are) and everything from its level on. The one rule of what each level sees,
    /// for lookups, suggestions, `.matching` placement and `sees(_:)`.
    func looksThrough(_ position: Int) -> Bool {
        guard let start = viewing?.start else { return true }
        return position >= start || sources[position].testing != nil
    }
}

extension Container {
    /// What this test container or view resolves through its base with: its own link (its sources, and which
    /// of them it looks through), the test container whose registrations come first (itself, or the test
    /// container a view belongs to), and that test container's link, which makes and keeps the views. `nil` for
    /// any other container, or a view whose test container is gone.
    var throughBase: (link: TestContainerLink, test: Container, views: TestContainerLink)? {
        guard let link = testing else { return nil }
        guard let viewing = link.viewing else { return (link, self, link) }
        guard let test = viewing.test.container, let views = test.testing else { return nil }
        return (link, test, views)
    }

    /// A test container's own link; `nil` for a view (whose link views a level of its base) and for any other
    /// container.
    var ownTestLink: TestContainerLink? {
        guard let link = testing, link.viewing == nil else { return nil }
        return link
    }

    /// For a view of a test container: the level of its base it resolves from; `nil` for any other container.
    package var viewedLevel: Container? {
        testing?.viewing == nil ? nil : testing?.base
    }

    /// For a view: the test container it belongs to; otherwise this container.
    package var testContainerOfView: Container {
        testing?.viewing?.test.container ?? self
    }
}
