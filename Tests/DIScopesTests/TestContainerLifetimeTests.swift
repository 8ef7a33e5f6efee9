import DICore
import DIScopes
import Testing

/// A test container made from a tree builds its own instance of every lifetime that keeps instances, with
/// the dependencies its base would give it (the test's own registrations first), and leaves the tree's
/// instances alone.
@Suite(.timeLimit(.minutes(1))) struct TestContainerLifetimeTests {
    enum Kept: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case singleton, scoped, cached, weak, matching, custom

        var testDescription: String { rawValue }

        func makeScope() -> Scope {
            switch self {
            case .singleton: .singleton
            case .scoped: .scoped
            case .cached: .cached
            case .weak: .weak
            case .matching: .matching("feature")
            case .custom: .custom("custom", storage: DictionaryStorage())
            }
        }
    }

    @Test(arguments: Kept.allCases)
    func buildsItsOwnInstanceWithItsOwnDependencies(kept: Kept) throws {
        let tree = try Tree(widget: kept.makeScope())
        let live = try tree.screen.resolve(Widget.self)
        let test = Container.makeTestContainer(from: tree.screen, name: "test")
        try test.register(Origin.self) { _ in Origin(container: "test") }
        let own = try test.resolve(Widget.self)
        #expect(own !== live)
        #expect(own.origin == "test")
        #expect(try test.resolve(Widget.self) === own)
        #expect(try tree.screen.resolve(Widget.self) === live)
        #expect(tree.builds.value == 2)
    }

    @Test(arguments: Kept.allCases)
    func disposesItsOwnInstanceWhenClosedAndNotTheTreeOnes(kept: Kept) throws {
        guard kept != .weak else { return }   // nobody disposes weak instances
        let tree = try Tree(widget: kept.makeScope())
        let live = try tree.screen.resolve(Widget.self)
        let test = Container.makeTestContainer(from: tree.screen, name: "test")
        let own = try test.resolve(Widget.self)
        test.close()
        #expect(tree.log.entries == ["dispose \(own.serial)"])
        #expect(try tree.screen.resolve(Widget.self) === live)
    }

    /// Registering the widget again in the tree drops the test container's own instance of the old registration
    /// and disposes it, as it disposes the tree's, and the test container's next resolve builds one of the new
    /// registration: it keeps no instance of a registration the tree replaced.
    @Test(arguments: Kept.allCases)
    func registeringAgainInTheTreeDropsItsOwnInstance(kept: Kept) throws {
        let tree = try Tree(widget: kept.makeScope())
        let test = Container.makeTestContainer(from: tree.screen, name: "test")
        let live = try tree.screen.resolve(Widget.self)
        var own: Widget? = try test.resolve(Widget.self)
        let ownSerial = try #require(own?.serial)
        weak let dropped = own
        let (log, builds) = (tree.log, tree.builds)
        try tree.app.register(Widget.self, scope: kept.makeScope()) { _ in
            Widget(origin: "again", serial: builds.increment(), log: log)
        }
        if kept != .weak {   // nobody disposes weak instances
            #expect(Set(tree.log.entries) == ["dispose \(live.serial)", "dispose \(ownSerial)"])
        }
        own = nil
        #expect(dropped == nil, "the test container still keeps the replaced registration's instance")
        let next = try test.resolve(Widget.self)
        #expect(next.origin == "again")
        #expect(try test.resolve(Widget.self) === next)
        test.close()
        if kept != .weak { #expect(tree.log.entries.last == "dispose \(next.serial)") }
    }

    /// With no override, the test container's own instance gets the dependencies the base's would: from the
    /// app for what the app keeps (`.singleton`, `.cached`, `.weak`, custom), from the tagged feature for
    /// `.matching`, from the screen itself for `.scoped`.
    @Test(arguments: Kept.allCases)
    func buildsWithTheDependenciesTheBaseWouldGive(kept: Kept) throws {
        let tree = try Tree(widget: kept.makeScope())
        let live = try tree.screen.resolve(Widget.self)
        let test = Container.makeTestContainer(from: tree.screen, name: "test")
        let own = try test.resolve(Widget.self)
        #expect(own !== live)
        #expect(own.origin == live.origin)
        #expect(try test.child(name: "below").resolve(Widget.self).origin == live.origin)
    }

    /// A `.matching("feature")` service that the screen registers below the tagged feature cannot be placed
    /// from the screen, and not from a test container made from it either.
    @Test func matchingRegisteredBelowItsTaggedContainerIsRefusedAsInTheTree() throws {
        let tree = try Tree(widget: .singleton)
        try tree.screen.register(Widget.self, scope: .matching("feature")) { _ in
            Widget(origin: "screen", serial: 0, log: Log())
        }
        let inTheTree = try #require(throws: ResolutionError.self) { try tree.screen.resolve(Widget.self) }
        let test = Container.makeTestContainer(from: tree.screen, name: "test")
        let inTheTest = try #require(throws: ResolutionError.self) { try test.resolve(Widget.self) }
        #expect(inTheTest.code == inTheTree.code)
    }

    /// Closing a test container made from the screen disposes what it built from the screen's registrations,
    /// then what it built from the app's, as closing the tree would: not newest first over both.
    @Test(arguments: [false, true])
    func closingDisposesLevelByLevel(async: Bool) async throws {
        let tree = try Tree(widget: .singleton)
        let (log, builds) = (tree.log, tree.builds)
        try tree.screen.register(Widget.self, name: "screen", scope: .singleton) { _ in
            Widget(origin: "screen", serial: builds.increment(), log: log)
        }
        let test = Container.makeTestContainer(from: tree.screen, name: "test")
        let screens = try test.resolve(Widget.self, name: "screen")
        let apps = try test.resolve(Widget.self)
        if async { await test.closeAsync() } else { test.close() }
        #expect(log.entries == ["dispose \(screens.serial)", "dispose \(apps.serial)"])
    }

    /// `reset` of a test container reaches the instances it built from its base's ancestors.
    @Test func resettingReachesWhatItBuiltFromTheAncestors() throws {
        let tree = try Tree(widget: .cached)
        let live = try tree.screen.resolve(Widget.self)
        let test = Container.makeTestContainer(from: tree.screen, name: "test")
        let own = try test.resolve(Widget.self)
        #expect(test.reset(.cached) == 1)
        #expect(tree.log.entries == ["dispose \(own.serial)"])
        let next = try test.resolve(Widget.self)
        #expect(next !== own)
        #expect(next.origin == "app")
        #expect(try tree.screen.resolve(Widget.self) === live)
    }

    @Test func matchingFindsTheTagOfTheBaseChain() throws {
        let tree = try Tree(widget: .matching("feature"))
        let test = Container.makeTestContainer(from: tree.screen, name: "test")
        #expect(test.tags.contains("feature"))
        let below = test.child(name: "below")
        #expect(try below.resolve(Widget.self) === test.resolve(Widget.self))
    }

    @Test func resettingTheTestContainerLeavesTheTreeAlone() throws {
        let tree = try Tree(widget: .cached)
        let live = try tree.app.resolve(Widget.self)
        let test = Container.makeTestContainer(from: tree.app, name: "test")
        let own = try test.resolve(Widget.self)
        #expect(test.reset(.cached) == 1)
        #expect(try test.resolve(Widget.self) !== own)
        #expect(try tree.app.resolve(Widget.self) === live)
    }
}
