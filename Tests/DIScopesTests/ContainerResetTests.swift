import DICore
import DIScopes
import Testing

@Suite struct ContainerResetTests {
    @Test func resettingScopedDropsOnlyTheInstancesOfThisContainer() throws {
        let tree = try Tree(widget: .scoped)
        let inApp = try tree.app.resolve(Widget.self)
        let inFeature = try tree.feature.resolve(Widget.self)
        let inScreen = try tree.screen.resolve(Widget.self)

        #expect(tree.feature.reset(.scoped) == 1)
        #expect(tree.log.entries == ["dispose \(inFeature.serial)"])
        #expect(try tree.feature.resolve(Widget.self) !== inFeature)
        #expect(try tree.app.resolve(Widget.self) === inApp)
        #expect(try tree.screen.resolve(Widget.self) === inScreen)

        #expect(tree.feature.reset(.scoped, includingDescendants: true) == 2)
        #expect(try tree.screen.resolve(Widget.self) !== inScreen)
        #expect(try tree.app.resolve(Widget.self) === inApp)
    }

    @Test func resettingMatchingDropsTheInstanceOfTheTaggedContainer() throws {
        let tree = try Tree(widget: .matching("feature"))
        let widget = try tree.screen.resolve(Widget.self)
        #expect(tree.screen.reset(.matching("feature")) == 0, "the screen does not hold it")
        #expect(tree.app.reset(.matching("feature")) == 0)
        #expect(tree.app.reset(.matching("other"), includingDescendants: true) == 0)
        #expect(try tree.screen.resolve(Widget.self) === widget)
        #expect(tree.app.reset(.matching("feature"), includingDescendants: true) == 1)
        #expect(try tree.screen.resolve(Widget.self) !== widget)
        #expect(tree.log.entries == ["dispose \(widget.serial)"])
    }

    @Test func resettingWeakStopsHandingOutAnInstanceThatIsStillHeldWithoutDisposingIt() throws {
        let tree = try Tree(widget: .weak)
        let held = try tree.app.resolve(Widget.self)
        #expect(tree.app.reset(.weak) == 1)
        let next = try tree.feature.resolve(Widget.self)
        #expect(next !== held)
        #expect(try tree.app.resolve(Widget.self) === next)
        #expect(tree.log.entries.isEmpty)
    }

    @Test func resettingACustomScopeReleasesThisContainersKeysFromTheStorage() throws {
        let storage = DictionaryStorage()
        let scope = Scope.custom("user", storage: storage)
        let tree = try Tree(widget: scope)
        try tree.feature.register(AppRouter.self, scope: scope) { _ in AppRouter() }
        let widget = try tree.screen.resolve(Widget.self)
        let router = try tree.screen.resolve(AppRouter.self)
        #expect(storage.count == 2)

        #expect(tree.feature.reset(scope) == 1)
        #expect(storage.count == 1)
        #expect(try tree.screen.resolve(AppRouter.self) !== router)
        #expect(try tree.screen.resolve(Widget.self) === widget, "app's key is not feature's to release")

        #expect(tree.app.reset(scope) == 1)
        #expect(tree.log.entries == ["dispose \(widget.serial)"])
    }

    @Test func resetDisposesNewestFirst() throws {
        let app = Container(name: "app")
        let log = Log()
        for (serial, name) in ["first", "second", "third"].enumerated() {
            try app.register(Widget.self, name: name, scope: .cached) { _ in
                Widget(origin: name, serial: serial + 1, log: log)
            }
        }
        for name in ["second", "first", "third"] { _ = try app.resolve(Widget.self, name: name) }
        #expect(app.reset(.cached) == 3)
        #expect(log.entries == ["dispose 3", "dispose 1", "dispose 2"])
    }

    @Test(arguments: [Scope.singleton, .transient, .graph])
    func scopesThatKeepNothingResettableDropNothing(scope: Scope) throws {
        let tree = try Tree(widget: scope)
        let first = try tree.app.resolve(Widget.self)
        #expect(tree.app.reset(scope, includingDescendants: true) == 0)
        if scope == .singleton {
            #expect(try tree.app.resolve(Widget.self) === first)
        }
        #expect(tree.log.entries.isEmpty)
    }
}
