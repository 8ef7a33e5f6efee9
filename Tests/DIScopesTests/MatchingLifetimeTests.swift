import DICore
import DIScopes
import Testing

@Suite(.timeLimit(.minutes(1))) struct MatchingLifetimeTests {
    @Test func theNearestTaggedContainerHoldsTheInstance() throws {
        let app = Container(name: "app")
        let builds = Counter()
        try app.register(AppRouter.self, scope: .matching("session")) { _ in
            builds.increment()
            return AppRouter()
        }
        let outer = app.child(name: "outer", tags: ["session"])
        let inner = outer.child(name: "inner", tags: ["session", "other"])
        let leaf = inner.child(name: "leaf")
        let fromLeaf = try leaf.resolve(AppRouter.self)
        #expect(try inner.resolve(AppRouter.self) === fromLeaf)
        #expect(try outer.resolve(AppRouter.self) !== fromLeaf)
        #expect(try outer.child(name: "sibling").resolve(AppRouter.self) === outer.resolve(AppRouter.self))
        #expect(builds.value == 2)
    }

    /// A few tags are compared one by one, more are looked up in the set: either way only the exact tag
    /// matches (a prefix, or the tag of a container further up, does not).
    @Test(arguments: [0, 3, 4, 7])
    func theTagIsFoundAmongAnyNumberOfOtherTags(others: Int) throws {
        let app = Container(name: "app", tags: ["session"])
        try app.register(AppRouter.self, scope: .matching("session")) { _ in AppRouter() }
        let decoys = Set((0..<others).map { "tag\($0)" }).union(["sessio", "session "])
        let untagged = app.child(name: "decoys", tags: decoys)
        let tagged = app.child(name: "tagged", tags: decoys.union(["session"]))
        #expect(try untagged.resolve(AppRouter.self) === app.resolve(AppRouter.self))
        #expect(try tagged.resolve(AppRouter.self) !== app.resolve(AppRouter.self))
        #expect(try tagged.child(name: "leaf").resolve(AppRouter.self) === tagged.resolve(AppRouter.self))
    }

    @Test func separatelyTaggedSiblingsEachHaveTheirOwn() throws {
        let app = Container(name: "app")
        try app.register(AppRouter.self, scope: .matching("session")) { _ in AppRouter() }
        let alice = app.child(name: "alice", tags: ["session"])
        let bob = app.child(name: "bob", tags: ["session"])
        #expect(try alice.resolve(AppRouter.self) !== bob.resolve(AppRouter.self))
    }

    @Test func theRegisteringContainerMayCarryTheTagItself() throws {
        let app = Container(name: "app", tags: ["app"])
        try app.register(AppRouter.self, scope: .matching("app")) { _ in AppRouter() }
        let child = app.child(name: "child")
        #expect(try child.resolve(AppRouter.self) === app.resolve(AppRouter.self))
    }

    @Test func noTaggedContainerOnThePathIsAnErrorNamingTheTagAndThePath() throws {
        let app = Container(name: "app")
        try app.register(AppRouter.self, scope: .matching("session")) { _ in AppRouter() }
        let leaf = app.child(name: "settings").child(name: "leaf")
        let error = try #require(throws: ResolutionError.self) { try leaf.resolve(AppRouter.self) }
        #expect(error.code == .scopeUnavailable)
        #expect(error.searchedContainers == ["leaf", "settings", "app"])
        let text = error.description
        #expect(text.contains("Cannot resolve AppRouter"))
        #expect(text.contains(#".matching("session")"#))
        #expect(text.contains("leaf → settings → app"))
        #expect(text.contains(#"tags: ["session"]"#))
        #expect(text.contains("MatchingLifetimeTests.swift"))
    }

    @Test func theErrorNamesTheWholePathWhenADependencyHasNoPlace() throws {
        let tree = try Tree(widget: .matching("session"))
        final class Page: Sendable {
            init(_ widget: Widget) {}
        }
        try tree.app.register(Page.self) { r in Page(try r.resolve(Widget.self)) }
        let error = try #require(throws: ResolutionError.self) { try tree.screen.resolve(Page.self) }
        #expect(error.code == .scopeUnavailable)
        #expect(error.path.map(\.description) == ["Page", "Widget"])
        #expect(error.description.contains("Page → Widget"))
    }

    /// A singleton of the app that needs a session's service is built in the app, where no session is on the
    /// way, even when a session asks for it: the note says so, and how to have it built where the tag is seen.
    @Test func aSingletonNeedingATaggedServiceSaysTheRequestsTagsAreNotOnItsWay() throws {
        final class Page: Sendable { init(_ router: AppRouter) {} }
        let app = Container(name: "app")
        try app.register(AppRouter.self, scope: .matching("session")) { _ in AppRouter() }
        try app.autoregister(Page.self, scope: .singleton, initializer: Page.init)
        let alice = app.child(name: "alice", tags: ["session"])
        let error = try #require(throws: ResolutionError.self) { try alice.resolve(Page.self) }
        #expect(error.code == .scopeUnavailable)
        // The detail advises Page's lifetime (never "resolve it from a tagged container": alice is one), and the
        // note says why alice's tag did not count, without repeating the advice.
        let advice = "Page needs AppRouter, and is a singleton service of app, built in app whichever container "
            + "resolves it. Give Page a lifetime no longer than AppRouter's (such as .matching(\"session\")), so "
            + "that it is built where that tag is seen, or register AppRouter with another scope."
        #expect(error.message.hasSuffix(advice), "\(error)")
        #expect(error.description.hasSuffix(
            "note:      Page is a singleton service of app, so its dependencies are resolved in app, not in alice "
                + "where the request started, and the tags of alice are not on their way."
        ), "\(error)")
        #expect(!error.description.contains("created with tags"), "\(error)")
        // Asked from the app, where no note applies, the advice is the same.
        let fromApp = try #require(throws: ResolutionError.self) { try app.resolve(Page.self) }
        #expect(fromApp.message.hasSuffix(advice), "\(fromApp)")
        // The advice works.
        try app.autoregister(Page.self, scope: .matching("session"), initializer: Page.init)
        _ = try alice.resolve(Page.self)
    }

    /// Through a transient, which is built where its dependent is, the singleton is still what decides.
    @Test func aSingletonNeedingATaggedServiceThroughATransientIsTheOneAdvised() throws {
        final class Layout: Sendable { init(_ router: AppRouter) {} }
        final class Page: Sendable { init(_ layout: Layout) {} }
        let app = Container(name: "app")
        try app.register(AppRouter.self, scope: .matching("session")) { _ in AppRouter() }
        try app.autoregister(Layout.self, initializer: Layout.init)
        try app.autoregister(Page.self, scope: .singleton, initializer: Page.init)
        let alice = app.child(name: "alice", tags: ["session"])
        let error = try #require(throws: ResolutionError.self) { try alice.resolve(Page.self) }
        #expect(error.message.hasSuffix("Page needs AppRouter through Layout, and is a singleton service of app, built "
            + "in app whichever container resolves it. Give Page a lifetime no longer than AppRouter's (such as "
            + ".matching(\"session\")), so that it is built where that tag is seen, or register AppRouter with "
            + "another scope."), "\(error)")
        #expect(error.description.hasSuffix("and the tags of alice are not on their way."), "\(error)")
        try app.autoregister(Page.self, scope: .matching("session"), initializer: Page.init)
        _ = try alice.resolve(Page.self)
    }

    /// A tag a letter away from one on the way is most likely a typo in `.matching(…)`: the error says which
    /// container carries the near tag and gives the registration to make, as `validate()` does, and following it
    /// works. Nothing near on the way: the usual advice.
    @Test func aTagALetterAwayFromOneOnTheWayIsNamedAsTheLikelyTypo() throws {
        let app = Container(name: "app")
        let request = app.child(name: "request", tags: ["request"])
        try app.register(AppRouter.self, scope: .matching("requests"), fileID: "App/Router.swift", line: 7) { _ in
            AppRouter()
        }
        let error = try #require(throws: ResolutionError.self) { try request.resolve(AppRouter.self) }
        #expect(error.code == .scopeUnavailable)
        #expect(error.message.contains("has that tag. request is tagged \"request\": if AppRouter should live once "
            + "per request, register it with .matching(\"request\") at App/Router.swift:7. Otherwise, resolve it from "
            + "a container created with tags: [\"requests\"]"), "\(error)")
        let far = Container(name: "far")
        try far.register(AppRouter.self, scope: .matching("requests")) { _ in AppRouter() }
        let session = far.child(name: "session", tags: ["session"])
        let usual = try #require(throws: ResolutionError.self) { try session.resolve(AppRouter.self) }
        #expect(usual.message.contains("has that tag. Resolve it from a container created with tags: "
            + "[\"requests\"]"), "\(usual)")
        try app.register(AppRouter.self, scope: .matching("request")) { _ in AppRouter() }
        #expect(try request.resolve(AppRouter.self) === request.resolve(AppRouter.self))
    }

    @Test func aTaggedAncestorAboveTheRegistrationIsRefused() throws {
        let app = Container(name: "app", tags: ["session"])
        let feature = app.child(name: "feature")
        try feature.register(AppRouter.self, scope: .matching("session")) { _ in AppRouter() }
        let error = try #require(throws: ResolutionError.self) { try feature.resolve(AppRouter.self) }
        #expect(error.code == .scopeUnavailable)
        #expect(error.description.contains("nearest container tagged \"session\" is app"))
        #expect(error.description.contains("cannot see registrations made in feature"))
    }

    @Test func twoNamesOfOneTypeNeverShareAnInstance() throws {
        let app = Container(name: "app")
        try app.register(AppRouter.self, name: "a", scope: .matching("s")) { _ in AppRouter() }
        try app.register(AppRouter.self, name: "b", scope: .matching("s")) { _ in AppRouter() }
        let session = app.child(name: "session", tags: ["s"])
        #expect(try session.resolve(AppRouter.self, name: "a") !== session.resolve(AppRouter.self, name: "b"))
    }

    @Test func scopesWithTheSameTagAreEqual() {
        #expect(Scope.matching("session") == .matching("session"))
        #expect(Scope.matching("session") != .matching("request"))
        #expect(Scope.matching("session").name == #"matching("session")"#)
    }

    @Test func asyncFactoriesMatchToo() async throws {
        let app = Container(name: "app")
        try app.registerAsync(AppRouter.self, scope: .matching("session")) { _ in AppRouter() }
        let session = app.child(name: "session", tags: ["session"])
        let router = try await session.child(name: "page").resolveAsync(AppRouter.self)
        #expect(try await session.resolveAsync(AppRouter.self) === router)
        await #expect(throws: ResolutionError.self) { try await app.resolveAsync(AppRouter.self) }
    }

    final class Visit: Sendable {}
    final class Work: Sendable { init(_ visit: Visit) {} }

    /// `Work`, one per request, needs `Visit`, one per session; asked of `request`, from the container `asking`
    /// makes below it (or of `request` itself).
    static func visitGraph(workScope: Scope = .matching("request")) throws -> Container {
        let app = Container(name: "app")
        try app.register(Work.self, scope: workScope) { r in Work(try r.resolve(Visit.self)) }
        try app.register(Visit.self, scope: .matching("session")) { _ in Visit() }
        return app
    }

    /// A `.matching` service that needs one of another tag resolves its dependencies in its own tagged container,
    /// so the other tag must be there or above: the advice says so, and each way out it names works — where
    /// "resolve it from a container tagged session" would not (a session below the request does not help).
    @Test(arguments: [false, true])
    func aTaggedServiceNeedingAnotherTagIsToldWhereThatTagMustBe(asyncResolve: Bool) async throws {
        let app = try Self.visitGraph()
        let request = app.child(name: "request", tags: ["request"])
        let below = request.child(name: "session", tags: ["session"])
        for asker in [request, below] {
            let error = try #require(await Self.error(resolving: Work.self, from: asker, async: asyncResolve))
            #expect(error.code == .scopeUnavailable)
            #expect(error.message.contains("""
                Work is a matching("request") service, built in request and resolving its dependencies there, so a \
                container tagged "session" must be request or above it: make request under one (for example \
                app.child(name: "session", tags: ["session"]).child(name: "request", tags: ["request"])), or tag \
                request "session" as well. If a "session" container lives inside request instead, give Work a \
                lifetime no longer than Visit's (such as .matching("session")); or register Visit with another \
                scope.
                """))
            #expect(!error.message.contains("or from one of its descendants"))
            // The step that found no place says where it was asked for, not where it was built.
            #expect(error.description.contains("Visit   matching(\"session\")  asked in request, registered in app"))
        }
        // Each way out the advice names.
        let under = app.child(name: "session", tags: ["session"]).child(name: "request", tags: ["request"])
        _ = try under.resolve(Work.self)
        _ = try app.child(name: "request", tags: ["request", "session"]).resolve(Work.self)
        let inside = try Self.visitGraph(workScope: .matching("session"))
        _ = try inside.child(name: "request", tags: ["request"]).child(name: "session", tags: ["session"])
            .resolve(Work.self)
    }

    /// A service built for whoever asks (a transient) is helped by asking from below a tagged container: that
    /// advice stays.
    @Test func aTransientNeedingATagIsToldToAskFromBelowOne() throws {
        let app = try Self.visitGraph(workScope: .transient)
        let error = try #require(throws: ResolutionError.self) {
            try app.child(name: "request", tags: ["request"]).resolve(Work.self)
        }
        #expect(error.message.contains("Resolve it from a container created with tags: [\"session\"] or from one "
            + "of its descendants"))
        _ = try app.child(name: "session", tags: ["session"]).child(name: "request").resolve(Work.self)
    }

    final class Desk: Sendable {
        let visit: Lazy<Visit>
        let visits: Provider<Visit>
        let asyncVisits: AsyncProvider<Visit>
        init(visit: Lazy<Visit>, visits: Provider<Visit>, asyncVisits: AsyncProvider<Visit>) {
            (self.visit, self.visits, self.asyncVisits) = (visit, visits, asyncVisits)
        }
    }

    enum Use: CaseIterable, Sendable {
        case lazy, provider, asyncProvider

        func read(_ desk: Desk) async throws {
            switch self {
            case .lazy: _ = try desk.visit.value
            case .provider: _ = try desk.visits()
            case .asyncProvider: _ = try await desk.asyncVisits()
            }
        }
    }

    /// A singleton's relationship resolves in the singleton's container whoever uses it, and later: the error of
    /// that use names the singleton's lifetime as the thing to change (as `validate()` does), not a tagged asker,
    /// which was tried already — and following the advice works.
    @Test(arguments: Use.allCases)
    func aSingletonsRelationshipToATaggedServiceIsToldToChangeTheSingleton(use: Use) async throws {
        let app = Container(name: "app")
        try app.register(Visit.self, scope: .matching("session")) { _ in Visit() }
        try app.autoregister(Desk.self, scope: .singleton, initializer: Desk.init)
        let session = app.child(name: "session", tags: ["session"])
        let desk = try session.resolve(Desk.self)
        let error = try await #require(throws: ResolutionError.self) { try await use.read(desk) }
        #expect(error.code == .scopeUnavailable)
        #expect(error.path.first?.description == "Desk")
        #expect(error.message.contains("Desk needs Visit, and is a singleton service of app, built in app whichever "
            + "container resolves it. Give Desk a lifetime no longer than Visit's (such as .matching(\"session\"))"))
        #expect(!error.message.contains("Resolve it from a container created with tags"))
        try app.autoregister(Desk.self, scope: .matching("session"), initializer: Desk.init)
        try await use.read(session.resolve(Desk.self))
    }

    /// Asked through an alias, the step that found no place is the alias's, as the path's other steps are, sync
    /// and async, asked directly or as a dependency.
    @Test(arguments: [false, true])
    func anAliasThatFindsNoPlaceIsNamedAsAsked(asyncResolve: Bool) async throws {
        final class Screen: Sendable { init(router: any Router) {} }
        let app = Container(name: "app")
        try app.register(AppRouter.self, scope: .matching("request")) { _ in AppRouter() }
            .implements((any Router).self)
        try app.autoregister(Screen.self, initializer: Screen.init)
        let plain = app.child(name: "plain")
        let direct = try #require(await Self.error(resolving: (any Router).self, from: plain, async: asyncResolve))
        #expect(direct.code == .scopeUnavailable)
        #expect(direct.path.map(\.description) == ["any Router"])
        #expect(ObjectIdentifier(direct.requestedType) == ObjectIdentifier((any Router).self))
        #expect(direct.message.hasPrefix("Cannot resolve any Router: its lifetime has no place here."))
        let through = try #require(await Self.error(resolving: Screen.self, from: plain, async: asyncResolve))
        #expect(through.path.map(\.description) == ["Screen", "any Router"])
        let concrete = try #require(await Self.error(resolving: AppRouter.self, from: plain, async: asyncResolve))
        #expect(concrete.path.map(\.description) == ["AppRouter"])
    }

    /// The `ResolutionError` of resolving `type` from `container`, with `resolveAsync` when `async`.
    static func error<T>(resolving type: T.Type, from container: Container, async: Bool) async -> ResolutionError? {
        do {
            if async { _ = try await container.resolveAsync(type) } else { _ = try container.resolve(type) }
            return nil
        } catch {
            return error as? ResolutionError
        }
    }
}

