import DICore
import DIPropertyWrappers
import Testing

private final class DetailCoordinator {
    @WeakLazyInject var parent: (any Coordinator)?
    @WeakLazyInject var root: RootCoordinator?
    @WeakLazyInject var database: Database?
    static let countLine = #line + 1
    @WeakLazyInject(name: "count") var count: Int?
}

/// A weak property in a `Sendable` owner, read from two threads (copies share the slot).
private struct Watcher: Sendable {
    @WeakLazyInject var database: Database?
}

/// One weak property only: an unresolved lazy property keeps its captured container alive.
private final class Back {
    @WeakLazyInject var root: RootCoordinator?
}

@Suite struct WeakLazyInjectTests {
    @Test func returnsTheInstanceWhileSomethingElseKeepsIt() throws {
        let app = Container(name: "app")
        try app.register(RootCoordinator.self, scope: .singleton) { _ in RootCoordinator(title: "main") }
        try app.register((any Coordinator).self) { r in try r.resolve(RootCoordinator.self) }
        let detail = withContainer(app) { DetailCoordinator() }
        #expect(!detail.$root.isResolved)
        let held = try app.resolve(RootCoordinator.self)
        #expect(detail.root === held)
        #expect(detail.$root.isResolved)
        #expect(detail.parent?.title == "main")
        #expect(detail.parent === held)
    }

    @Test func becomesNilOnceTheInstanceIsReleasedAndDoesNotResolveAgain() throws {
        let builds = Counter()
        weak var probe: RootCoordinator?
        let detail: Back
        do {
            let app = Container(name: "app")
            try app.register(RootCoordinator.self, scope: .singleton) { _ in
                builds.increment()
                return RootCoordinator()
            }
            detail = withContainer(app) { Back() }
            probe = detail.root
            let alive = probe != nil && detail.root != nil
            #expect(alive)
            app.close()
        }
        // The container (and with it the singleton) is gone; the wrapper held neither.
        #expect(probe == nil)
        #expect(detail.root == nil)
        #expect(builds.value == 1)
    }

    /// Two first reads at once, the first of which fails after the second one resolved: the failed read
    /// returns the object the second one keeps, instead of failing beside it.
    @Test(.timeLimit(.minutes(1)))
    func aFirstReadThatFailsAfterAnotherResolvedReturnsItsObject() async throws {
        let app = Container(name: "app")
        let watcher = withContainer(app) { Watcher() }
        var second: Database?
        let first = try await raceAFirstReadThatFailsLast(
            in: app, firstRead: { try watcher.$database.resolve()?.name ?? "nil" }
        ) {
            // Bound as `Database` first: assigned to the optional `second` directly, the value would be wrapped
            // once more, and `#require` could never fail.
            let kept: Database = try #require(watcher.database)
            second = kept   // kept alive here while the first read finishes
        }
        #expect(first == "second")
        #expect(watcher.database === second)
    }

    @Test func aTransientIsOnlySeenByTheFirstRead() throws {
        let app = Container(name: "app")
        try app.register(Database.self) { _ in Database() }
        let detail = withContainer(app) { DetailCoordinator() }
        #expect(detail.database != nil)
        #expect(detail.database == nil)
    }

    @Test func aValueTypeIsRefusedWithAClearError() throws {
        let app = Container(name: "app")
        try app.register(Int.self, name: "count") { _ in 3 }
        let detail = withContainer(app) { DetailCoordinator() }
        let error = try #require(throws: InjectionError.self) { try detail.$count.resolve() }
        #expect(error.code == .notAnObject)
        #expect(error.description.contains(
            "@WeakLazyInject at DIPropertyWrappersTests/WeakLazyInjectTests.swift:\(DetailCoordinator.countLine)"
        ))
        #expect(error.description.contains("Int \"count\""))
        #expect(error.description.contains("not a class instance"))
    }

    @Test func missingServiceReportsTheDiagnostic() throws {
        let detail = withContainer(Container(name: "empty")) { DetailCoordinator() }
        let error = try #require(throws: InjectionError.self) { try detail.$root.resolve() }
        #expect(error.code == .resolutionFailed)
        #expect(error.resolutionError?.code == .notRegistered)
        #expect(error.description.contains("could not inject RootCoordinator from empty"))
    }
}
