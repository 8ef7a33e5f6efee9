import DICore
import DIScopes
import Testing

@Suite(.timeLimit(.minutes(1))) struct ScopedLifetimeTests {
    /// Swinject's `.container` scope hands both siblings the parent's one instance.
    @Test func eachSiblingFeatureGetsItsOwnInstanceBuiltWithItsOwnOverrides() throws {
        let tree = try Tree(widget: .scoped)
        let other = tree.app.child(name: "other")
        try other.register(Origin.self) { _ in Origin(container: "other") }
        let mine = try tree.feature.resolve(Widget.self)
        let theirs = try other.resolve(Widget.self)
        #expect(mine !== theirs)
        #expect(mine.origin == "feature")
        #expect(theirs.origin == "other")
        #expect(try other.resolve(Widget.self) === theirs)
    }

    @Test func aChildWithoutOverridesStillGetsItsOwnInstance() throws {
        let app = Container(name: "app")
        let builds = Counter()
        try app.register(AppRouter.self, scope: .scoped) { _ in
            builds.increment()
            return AppRouter()
        }
        let child = app.child(name: "child")
        #expect(try app.resolve(AppRouter.self) !== child.resolve(AppRouter.self))
        #expect(builds.value == 2)
    }

    /// Caches keyed by the produced type (InjectableDemo, Factory's scope caches) would share these.
    @Test func twoNamesOfOneTypeNeverShareAnInstance() throws {
        let app = Container(name: "app")
        try app.register(AppRouter.self, name: "main", scope: .scoped) { _ in AppRouter() }
        try app.register(AppRouter.self, name: "modal", scope: .scoped) { _ in AppRouter() }
        let child = app.child(name: "child")
        let main = try child.resolve(AppRouter.self, name: "main")
        let modal = try child.resolve(AppRouter.self, name: "modal")
        #expect(main !== modal)
        #expect(try child.resolve(AppRouter.self, name: "main") === main)
    }

    @Test func aliasesShareTheInstanceOfTheAskingContainer() throws {
        let app = Container(name: "app")
        try app.register(AppRouter.self, scope: .scoped) { _ in AppRouter() }.implements((any Router).self)
        let child = app.child(name: "child")
        let concrete = try child.resolve(AppRouter.self)
        #expect(try child.resolve((any Router).self) === concrete)
        #expect(try app.resolve((any Router).self) !== concrete)
    }

    /// A singleton's dependencies come from its registering container, so the `.scoped` service it uses is
    /// the registering container's instance, not the asking child's.
    @Test func aSingletonUsesTheScopedInstanceOfItsRegisteringContainer() throws {
        let tree = try Tree(widget: .scoped)
        final class Holder: Sendable {
            let widget: Widget
            init(_ widget: Widget) { self.widget = widget }
        }
        try tree.app.register(Holder.self, scope: .singleton) { r in Holder(try r.resolve(Widget.self)) }
        let holder = try tree.feature.resolve(Holder.self)
        #expect(holder.widget === (try tree.app.resolve(Widget.self)))
        #expect(holder.widget !== (try tree.feature.resolve(Widget.self)))
        #expect(holder.widget.origin == "app")
    }

    /// A transient's dependencies come from the asking container, so it gets the asking container's instance.
    @Test func aTransientUsesTheScopedInstanceOfTheAskingContainer() throws {
        let tree = try Tree(widget: .scoped)
        final class Page: Sendable {
            let widget: Widget
            init(_ widget: Widget) { self.widget = widget }
        }
        try tree.app.register(Page.self) { r in Page(try r.resolve(Widget.self)) }
        let page = try tree.screen.resolve(Page.self)
        #expect(page.widget === (try tree.screen.resolve(Widget.self)))
        #expect(page.widget.origin == "screen")
    }

    @Test func asyncFactoriesAreScopedToo() async throws {
        let app = Container(name: "app")
        let builds = Counter()
        try app.registerAsync(AppRouter.self, scope: .scoped) { _ in
            builds.increment()
            return AppRouter()
        }
        let child = app.child(name: "child")
        let first = try await child.resolveAsync(AppRouter.self)
        #expect(try await child.resolveAsync(AppRouter.self) === first)
        #expect(try await app.resolveAsync(AppRouter.self) !== first)
        #expect(builds.value == 2)
    }
}
