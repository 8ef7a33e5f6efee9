import DICore
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(1))) struct AsyncTests {
    actor Store {
        let name: String
        init(name: String) { self.name = name }
        static func open(_ name: String) async -> Store {
            await Task.yield()
            return Store(name: name)
        }
    }

    @MainActor final class MainThing: Sendable {
        let value = 1
    }

    @Test func asyncFactoryResolves() async throws {
        let app = Container(name: "app")
        try app.registerAsync(Store.self, scope: .singleton) { _ in await Store.open("main") }
        let store = try await app.resolveAsync(Store.self)
        #expect(store.name == "main")
        #expect(try await app.resolveAsync(Store.self) === store)
    }

    @Test func asyncFactoriesResolveOtherAsyncServices() async throws {
        let app = Container(name: "app")
        try app.registerAsync(Store.self, scope: .singleton) { _ in await Store.open("db") }
        try app.registerAsync(String.self) { r in
            let store = try await r.resolveAsync(Store.self)
            return "uses \(store.name)"
        }
        #expect(try await app.resolveAsync(String.self) == "uses db")
    }

    @Test func asyncFactoriesResolveSynchronousServices() async throws {
        let app = Container(name: "app")
        try app.register((any Logger).self) { _ in ConsoleLogger(label: "sync") }
        try app.registerAsync(String.self) { r in try r.resolve((any Logger).self).label }
        #expect(try await app.resolveAsync(String.self) == "sync")
        #expect(try await app.resolveAsync((any Logger).self).label == "sync")
    }

    @Test func mainActorFactoriesWork() async throws {
        let app = Container(name: "app")
        try app.registerAsync(MainThing.self, scope: .singleton) { @MainActor _ in MainThing() }
        let thing = try await app.resolveAsync(MainThing.self)
        #expect(thing.value == 1)
    }

    @Test func synchronousResolveOfAnAsyncRegistrationThrows() async throws {
        let app = Container(name: "app")
        try app.registerAsync(Store.self) { _ in await Store.open("x") }
        let error = try #require(throws: ResolutionError.self) { try app.resolve(Store.self) }
        #expect(error.code == .asyncResolutionRequired)
        #expect(error.description.contains("resolveAsync"))
    }

    /// A synchronous factory resolves its dependencies synchronously, also when its service is asked for with
    /// `resolveAsync`: the way out is in that factory (or the dependency's registration), not in an `await` at
    /// the caller's, who already awaited.
    @Test func anAsyncDependencyOfASynchronousFactoryPointsAtThatFactory() async throws {
        final class Repository: Sendable { init(store: Store) {} }
        let app = Container(name: "app")
        try app.registerAsync(Store.self) { _ in await Store.open("x") }
        let line = #line + 1
        try app.autoregister(Repository.self, initializer: Repository.init)

        let error = try await #require(throws: ResolutionError.self) { try await app.resolveAsync(Repository.self) }
        #expect(error.code == .asyncResolutionRequired)
        #expect(error.message.hasPrefix("Cannot resolve Store synchronously: its factory is async. "), "\(error)")
        #expect(error.message.hasSuffix(
            "and the factory of Repository (DICoreTests/AsyncTests.swift:\(line)) resolves it synchronously, also "
                + "under resolveAsync: register Repository with registerAsync and resolve it there with "
                + "`try await r.resolveAsync(Store.self)`, inject AsyncProvider<Store> into it, or give Store a "
                + "synchronous factory."
        ), "\(error)")
        #expect(!error.message.contains("from an async context"), "\(error)")
        // Asked for at the top level, the way out is the caller's own `await`.
        let direct = try #require(throws: ResolutionError.self) { try app.resolve(Store.self) }
        #expect(direct.message.hasSuffix("call `try await resolveAsync(Store.self)` from an async context."))
    }

    @Test func synchronousResolveOfABuiltAsyncSingletonStillThrows() async throws {
        let app = Container(name: "app")
        try app.registerAsync(Store.self, scope: .singleton) { _ in await Store.open("x") }
        _ = try await app.resolveAsync(Store.self)
        // The built instance is in the slot, but only a synchronous singleton is handed out by `resolve`: also
        // once the registration is published in the table the fast path reads (a few lookups publish it).
        for _ in 0..<8 {
            let error = try #require(throws: ResolutionError.self) { try app.resolve(Store.self) }
            #expect(error.code == .asyncResolutionRequired)
        }
    }

    @Test func asyncSingletonIsBuiltOnceUnderConcurrentAccess() async throws {
        let app = Container(name: "app")
        let counter = Counter()
        try app.registerAsync(Store.self, scope: .singleton) { _ in
            counter.increment()
            return await Store.open("once")
        }
        let stores = try await withThrowingTaskGroup(of: Store.self) { group in
            for _ in 0..<100 { group.addTask { try await app.resolveAsync(Store.self) } }
            return try await group.reduce(into: [Store]()) { $0.append($1) }
        }
        #expect(counter.value == 1)
        #expect(stores.allSatisfy { $0 === stores[0] })
    }

    @Test func aFailedAsyncSingletonBuildIsRetriedOnTheNextResolve() async throws {
        let app = Container(name: "app")
        let counter = Counter()
        try app.registerAsync(Store.self, scope: .singleton) { _ in
            counter.increment()
            if counter.value == 1 { throw FactoryError(reason: "first attempt") }
            return await Store.open("second")
        }
        await #expect(throws: ResolutionError.self) { try await app.resolveAsync(Store.self) }
        let store = try await app.resolveAsync(Store.self)
        #expect(try await app.resolveAsync(Store.self) === store)
        #expect(counter.value == 2)
    }

    /// The task building an async singleton is cancelled while its factory waits: the build fails for that task
    /// alone, the tasks waiting for it (1, 2, 3 or 16) get one instance between them, built again by one of
    /// them, and the container hands that instance out from then on.
    @Test(arguments: [1, 2, 3, 16])
    func aCancelledAsyncSingletonBuildLeavesTheSingletonBuildable(waiters: Int) async throws {
        let app = Container(name: "app")
        let builds = Counter()
        let (started, starting) = AsyncStream.makeStream(of: Void.self)
        try app.registerAsync(Store.self, scope: .singleton) { _ in
            builds.increment()
            if builds.value == 1 {
                starting.yield()
                try await Task.sleep(for: .seconds(60))    // until cancelled
            }
            return await Store.open("built")
        }
        let first = Task { try await app.resolveAsync(Store.self) }
        for await _ in started { break }
        let waiting = (0..<waiters).map { _ in Task { try await app.resolveAsync(Store.self) } }
        first.cancel()
        await #expect(throws: (any Error).self) { try await first.value }
        var stores: [Store] = []
        for task in waiting { stores.append(try await task.value) }
        let store = try await app.resolveAsync(Store.self)
        #expect(stores.allSatisfy { $0 === store })
        #expect(builds.value == 2)
    }

    @Test func asyncCycleIsDetected() async throws {
        let app = Container(name: "app")
        try app.registerAsync(String.self) { r in String(try await r.resolveAsync(Int.self)) }
        try app.registerAsync(Int.self) { r in Int(try await r.resolveAsync(String.self)) ?? 0 }
        let error = try await #require(throws: ResolutionError.self) { try await app.resolveAsync(String.self) }
        #expect(error.code == .circularDependency)
        #expect(error.path.map(\.description) == ["String", "Int", "String"])
    }

    @Test func asyncFactoryErrorIsWrappedWithThePath() async throws {
        let app = Container(name: "app")
        try app.registerAsync(Store.self) { _ in throw FactoryError(reason: "disk full") }
        let error = try await #require(throws: ResolutionError.self) { try await app.resolveAsync(Store.self) }
        #expect(error.code == .factoryFailed)
        #expect((error.underlying as? FactoryError)?.reason == "disk full")
    }

    // MARK: A built async singleton, found without the full lookup

    /// From a request's container (which keeps a value of its own) the app's built async singleton is the app's;
    /// once the request's container or the app is closed, both refuse.
    @Test func aBuiltAsyncSingletonIsTheAppsFromARequestAndRefusedOnceClosed() async throws {
        let app = Container(name: "app")
        try app.registerAsync(Store.self, scope: .singleton) { _ in await Store.open("app") }
        let store = try await app.resolveAsync(Store.self)
        let request = app.child(name: "request", tags: ["request"])
        try request.register(value: "request's own value")
        #expect(try await request.resolveAsync(Store.self) === store)
        request.close()
        let closed = try await #require(throws: ResolutionError.self) { try await request.resolveAsync(Store.self) }
        #expect(closed.code == .containerClosed)
        app.close()
        let appClosed = try await #require(throws: ResolutionError.self) { try await app.resolveAsync(Store.self) }
        #expect(appClosed.code == .containerClosed)
    }

    /// A container that lives long: its async singleton re-registered two thousand times, each time resolved,
    /// built anew and then found built; never the instance of a registration that was replaced.
    @Test func reRegisteringAnAsyncSingletonHandsOutOnlyTheNewOne() async throws {
        let app = Container(name: "app")
        let request = app.child(name: "request")
        for round in 0..<2_000 {
            try app.registerAsync(Store.self, scope: .singleton) { _ in Store(name: "\(round)") }
            let built = try await request.resolveAsync(Store.self)
            #expect(built.name == "\(round)")
            #expect(try await app.resolveAsync(Store.self) === built)
        }
    }

    /// A child's own registration of the key shadows the app's built singleton, and a name tells two apart.
    /// (Aliases of an async singleton: `AliasTests`.)
    @Test func shadowsAndNamesOfABuiltAsyncSingletonKeepTheirMeaning() async throws {
        let app = Container(name: "app")
        try app.registerAsync(Store.self, scope: .singleton) { _ in Store(name: "app") }
        try app.registerAsync(Store.self, name: "replica", scope: .singleton) { _ in Store(name: "replica") }
        let child = app.child(name: "feature")
        _ = try await app.resolveAsync(Store.self)
        try child.registerAsync(Store.self, scope: .singleton) { _ in Store(name: "feature") }
        #expect(try await child.resolveAsync(Store.self).name == "feature")
        #expect(try await child.resolveAsync(Store.self).name == "feature")
        #expect(try await child.resolveAsync(Store.self, name: "replica").name == "replica")
        #expect(try await app.resolveAsync(Store.self).name == "app")
    }

    /// A resolution behaviour still sees every resolve of a built async singleton, and a synchronous resolve of
    /// it still throws.
    @Test func anObservedContainerReportsEveryResolveOfABuiltAsyncSingleton() async throws {
        let app = Container(name: "app")
        let recorder = AsyncResolutionRecorder()
        app.addBehavior(recorder)
        try app.registerAsync(Store.self, scope: .singleton) { _ in Store(name: "observed") }
        let child = app.child(name: "request")
        for _ in 0..<3 { _ = try await child.resolveAsync(Store.self) }
        #expect(recorder.count == 3)
        let error = try #require(throws: ResolutionError.self) { try child.resolve(Store.self) }
        #expect(error.code == .asyncResolutionRequired)
    }

    /// 1, 2, 3 and 16 tasks resolve the async singleton while it is re-registered: each gets an instance of a
    /// registration that was current while it asked, none a torn or freed one.
    @Test(arguments: [1, 2, 3, 16])
    func tasksResolveABuiltAsyncSingletonWhileItIsReRegistered(tasks: Int) async throws {
        let app = Container(name: "app")
        let request = app.child(name: "request")
        try request.register(value: 1)
        try app.registerAsync(Store.self, scope: .singleton) { _ in Store(name: "0") }
        try await withThrowingTaskGroup(of: Void.self) { group in
            // No `Task.yield()` between registrations: in a busy test process each yield waits behind every
            // other test's tasks (seconds for 200 of them, over a minute under ThreadSanitizer). The two cores
            // interleave the writer and the readers anyway.
            group.addTask {
                for round in 1...200 {
                    try app.registerAsync(Store.self, scope: .singleton) { _ in Store(name: "\(round)") }
                }
            }
            for _ in 0..<tasks {
                group.addTask {
                    var last = -1
                    for _ in 0..<200 {
                        let round = Int(try await request.resolveAsync(Store.self).name) ?? -2
                        // Registrations only move forward: a task never sees an older one after a newer one.
                        #expect(round >= last)
                        last = round
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await request.resolveAsync(Store.self).name == "200")
    }
}

/// Counts the resolves a container reports.
private final class AsyncResolutionRecorder: ResolutionBehavior, Sendable {
    private let resolves = Atomic<Int>(0)

    var count: Int { resolves.load(ordering: .relaxed) }

    func didResolve(_ info: RegistrationInfo, instance: Any, in container: Container) {
        resolves.add(1, ordering: .relaxed)
    }
}
