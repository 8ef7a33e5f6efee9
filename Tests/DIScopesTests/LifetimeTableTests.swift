import DICore
import DIScopes
import Testing

/// The lifetime table (the DIScopes "Lifetimes" article), row by row: how many instances there are, who holds them (whose `close()`
/// disposes them) and which container's resolver built them (the `Origin` they carry), with the parent
/// asking first and with the child asking first.
///
/// The tree is `app` → `feature` (tagged "feature") → `screen`; each registers its own `Origin`, and `Widget`
/// is registered in `app`.
@Suite struct LifetimeTableTests {
    private func widgets(_ tree: Tree, _ order: Order) throws -> (parent: Widget, child: Widget) {
        try order.resolve(
            parent: { try tree.app.resolve(Widget.self) },
            child: { try tree.feature.resolve(Widget.self) }
        )
    }

    @Test(arguments: Order.allCases)
    func transientIsNewOnEveryResolveHeldByNobodyAndBuiltByTheAskingContainer(order: Order) throws {
        let tree = try Tree(widget: .transient)
        let (parent, child) = try widgets(tree, order)
        #expect(parent !== child)
        #expect(try tree.app.resolve(Widget.self) !== parent)
        #expect(parent.origin == "app")
        #expect(child.origin == "feature")
        tree.app.close()
        #expect(tree.log.entries.isEmpty)
    }

    /// Swinject (#310, #580) builds a parent's singleton with the resolver of whichever child asked first, so
    /// with the child first it would carry "feature".
    @Test(arguments: Order.allCases)
    func singletonIsOnePerRegisteringContainerHeldAndBuiltByIt(order: Order) throws {
        let tree = try Tree(widget: .singleton)
        let (parent, child) = try widgets(tree, order)
        #expect(parent === child)
        #expect(try tree.screen.resolve(Widget.self) === parent)
        #expect(parent.origin == "app")
        tree.feature.close()
        #expect(tree.log.entries.isEmpty, "the child does not hold the parent's singleton")
        tree.app.close()
        #expect(tree.log.entries == ["dispose \(parent.serial)"])
    }

    /// Swinject's `.container` scope shares one instance between a container and its children, and builds it
    /// with the resolver of whoever asked first; here each asking container has its own, built with its own
    /// resolver.
    @Test(arguments: Order.allCases)
    func scopedIsOnePerAskingContainerHeldAndBuiltByIt(order: Order) throws {
        let tree = try Tree(widget: .scoped)
        let (parent, child) = try widgets(tree, order)
        #expect(parent !== child)
        #expect(try tree.app.resolve(Widget.self) === parent)
        #expect(try tree.feature.resolve(Widget.self) === child)
        #expect(parent.origin == "app")
        #expect(child.origin == "feature")
        let grandchild = try tree.screen.resolve(Widget.self)
        #expect(grandchild !== child && grandchild.origin == "screen")

        tree.feature.close()
        #expect(tree.log.entries == ["dispose \(grandchild.serial)", "dispose \(child.serial)"])
        tree.app.close()
        #expect(tree.log.entries.last == "dispose \(parent.serial)")
        #expect(tree.log.entries.count == 3)
    }

    @Test(arguments: Order.allCases)
    func graphIsOnePerTopLevelResolveHeldByNobodyAndBuiltByTheAskingContainer(order: Order) throws {
        let tree = try Tree(widget: .graph)
        let (parent, child) = try widgets(tree, order)
        #expect(parent !== child)
        #expect(try tree.app.resolve(Widget.self) !== parent, "a new top-level resolve gets a new instance")
        #expect(parent.origin == "app")
        #expect(child.origin == "feature")
        tree.app.close()
        #expect(tree.log.entries.isEmpty)
    }

    @Test(arguments: Order.allCases)
    func weakIsSharedWhileHeldHeldWeaklyByAndBuiltByTheRegisteringContainer(order: Order) throws {
        let tree = try Tree(widget: .weak)
        weak var observed: Widget?
        do {
            let (parent, child) = try widgets(tree, order)
            observed = parent
            #expect(parent === child)
            #expect(try tree.screen.resolve(Widget.self) === parent)
            #expect(parent.origin == "app")
            #expect(child.origin == "app")
        }
        #expect(observed == nil, "the container holds it weakly: it goes with the last strong reference")
        let next = try tree.feature.resolve(Widget.self)
        #expect(next.serial == 2 && next.origin == "app")
        tree.app.close()
        #expect(tree.log.entries.isEmpty, "a weakly held instance is not the container's to dispose")
    }

    @Test(arguments: Order.allCases)
    func cachedIsOnePerRegisteringContainerUntilResetHeldAndBuiltByIt(order: Order) throws {
        let tree = try Tree(widget: .cached)
        let (parent, child) = try widgets(tree, order)
        #expect(parent === child)
        #expect(parent.origin == "app")

        #expect(tree.feature.reset(.cached) == 0, "a child's reset never drops its parent's instance")
        #expect(try tree.feature.resolve(Widget.self) === parent)

        tree.feature.close()
        #expect(tree.log.entries.isEmpty)
        #expect(tree.app.reset(.cached) == 1)
        #expect(tree.log.entries == ["dispose \(parent.serial)"])
        let rebuilt = try tree.app.resolve(Widget.self)
        #expect(rebuilt !== parent && rebuilt.origin == "app")
        tree.app.close()
        #expect(tree.log.entries.last == "dispose \(rebuilt.serial)")
    }

    /// With the child (`screen`) asking first, an asking-container rule would build it with "screen".
    @Test(arguments: Order.allCases)
    func matchingIsOnePerNearestTaggedContainerHeldAndBuiltByIt(order: Order) throws {
        let tree = try Tree(widget: .matching("feature"))
        let (parent, child) = try order.resolve(
            parent: { try tree.feature.resolve(Widget.self) },
            child: { try tree.screen.resolve(Widget.self) }
        )
        #expect(parent === child)
        #expect(parent.origin == "feature")
        #expect(child.origin == "feature")

        let error = try #require(throws: ResolutionError.self) { try tree.app.resolve(Widget.self) }
        #expect(error.code == .scopeUnavailable)

        tree.screen.close()
        #expect(tree.log.entries.isEmpty, "the asking child does not hold it")
        tree.feature.close()
        #expect(tree.log.entries == ["dispose \(parent.serial)"])
    }
}
