import DICore
import DIScopes
import Testing

@Suite(.timeLimit(.minutes(1))) struct CachedLifetimeTests {
    @Test func resetDropsAndDisposesTheInstanceAndTheNextResolveBuildsANewOne() throws {
        let tree = try Tree(widget: .cached)
        let first = try tree.feature.resolve(Widget.self)
        #expect(try tree.screen.resolve(Widget.self) === first)
        #expect(tree.app.reset(.cached) == 1)
        #expect(tree.log.entries == ["dispose \(first.serial)"])
        let second = try tree.feature.resolve(Widget.self)
        #expect(second !== first)
        #expect(second.origin == "app")
        #expect(tree.app.reset(.cached) == 1)
        #expect(tree.app.reset(.cached) == 0, "nothing left to drop")
    }

    @Test func aResetReachesDescendantsOnlyWhenAsked() throws {
        let tree = try Tree(widget: .cached)
        try tree.feature.register(AppRouter.self, scope: .cached) { _ in AppRouter() }
        let widget = try tree.app.resolve(Widget.self)
        let router = try tree.feature.resolve(AppRouter.self)

        #expect(tree.app.reset(.cached) == 1)
        #expect(try tree.feature.resolve(AppRouter.self) === router, "the child's own instance survives")
        #expect(try tree.app.resolve(Widget.self) !== widget)

        #expect(tree.app.reset(.cached, includingDescendants: true) == 2)
        #expect(try tree.feature.resolve(AppRouter.self) !== router)
    }

    @Test func aResetOfTheChildNeverReachesTheParent() throws {
        let tree = try Tree(widget: .cached)
        let widget = try tree.screen.resolve(Widget.self)
        #expect(tree.screen.reset(.cached, includingDescendants: true) == 0)
        #expect(tree.feature.reset(.cached, includingDescendants: true) == 0)
        #expect(try tree.screen.resolve(Widget.self) === widget)
        #expect(tree.log.entries.isEmpty)
    }

    @Test func aResetLeavesOtherScopesAlone() throws {
        let tree = try Tree(widget: .cached)
        try tree.app.register(AppRouter.self, scope: .singleton) { _ in AppRouter() }
        try tree.app.register(AppRouter.self, name: "scoped", scope: .scoped) { _ in AppRouter() }
        let singleton = try tree.app.resolve(AppRouter.self)
        let scoped = try tree.app.resolve(AppRouter.self, name: "scoped")
        tree.app.reset(.cached)
        #expect(try tree.app.resolve(AppRouter.self) === singleton)
        #expect(try tree.app.resolve(AppRouter.self, name: "scoped") === scoped)
    }

    @Test func twoNamesOfOneTypeNeverShareAnInstance() throws {
        let app = Container(name: "app")
        try app.register(AppRouter.self, name: "main", scope: .cached) { _ in AppRouter() }
        try app.register(AppRouter.self, name: "modal", scope: .cached) { _ in AppRouter() }
        #expect(try app.resolve(AppRouter.self, name: "main") !== app.resolve(AppRouter.self, name: "modal"))
        #expect(try app.resolve(AppRouter.self, name: "main") === app.resolve(AppRouter.self, name: "main"))
    }

    @Test func asyncFactoriesAreCachedUntilReset() async throws {
        let app = Container(name: "app")
        let builds = Counter()
        try app.registerAsync(AppRouter.self, scope: .cached) { _ in
            builds.increment()
            return AppRouter()
        }
        let first = try await app.resolveAsync(AppRouter.self)
        #expect(try await app.resolveAsync(AppRouter.self) === first)
        app.reset(.cached)
        #expect(try await app.resolveAsync(AppRouter.self) !== first)
        #expect(builds.value == 2)
    }
}
