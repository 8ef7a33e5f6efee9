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

    /// A container keeps a few slots in a list and indexes them past eight; replacing registrations removes
    /// slots from the middle of either. Every name keeps its own instance, a replaced one is disposed once,
    /// and closing disposes every instance still held, once.
    @Test(arguments: [3, 9, 40])
    func manyScopedServicesInOneContainerKeepTheirOwnInstances(count: Int) throws {
        let app = Container(name: "app")
        let log = Log()
        let serials = Counter()
        func register(_ index: Int) throws {
            try app.register(Widget.self, name: "w\(index)", scope: .scoped) { _ in
                serials.increment()
                return Widget(origin: "w\(index)", serial: serials.value, log: log)
            }
        }
        for index in 0..<count { try register(index) }
        let feature = app.child(name: "feature")
        let first = try (0..<count).map { try feature.resolve(Widget.self, name: "w\($0)") }
        #expect(Set(first.map(\.serial)).count == count)
        // Replace the first, a middle and the last registration: their instances are disposed at once.
        let replaced = Array(Set([0, count / 2, count - 1])).sorted()
        for index in replaced { try register(index) }
        #expect(Set(log.entries) == Set(replaced.map { "dispose \(first[$0].serial)" }))
        for index in 0..<count {
            let widget = try feature.resolve(Widget.self, name: "w\(index)")
            #expect(widget.origin == "w\(index)")
            #expect((widget === first[index]) == !replaced.contains(index))
            #expect(try feature.resolve(Widget.self, name: "w\(index)") === widget)
        }
        let disposedBefore = log.entries.count
        feature.close()
        let closing = Array(log.entries.dropFirst(disposedBefore))
        #expect(closing.count == count, "every held instance is disposed once at close")
        #expect(Set(closing).count == count)
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
