import DICore
import DITestSupport
import DIScopes
import Foundation
import Synchronization
import Testing

/// Every instance-keeping lifetime under contention from threads and tasks at once, directly and through
/// an alias, while caches are reset, keys re-registered and children made and closed. Run under
/// `--sanitize=thread` too.
@Suite struct ScopeStressTests {
    protocol Handle: AnyObject, Sendable {}

    /// Knows whether it was disposed, and which registration (version) built it.
    final class Resource: Handle, Disposable, Sendable {
        let version: Int
        private let disposed = Atomic<Bool>(false)
        init(version: Int) { self.version = version }
        func dispose() { disposed.store(true, ordering: .releasing) }
        var isDisposed: Bool { disposed.load(ordering: .acquiring) }
    }

    enum Keeping: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case singleton, cached, scoped, weak, matching

        var testDescription: String { rawValue }

        var scope: Scope {
            switch self {
            case .singleton: .singleton
            case .cached: .cached
            case .scoped: .scoped
            case .weak: .weak
            case .matching: .matching("session")
            }
        }
    }

    /// `app` → `session` (tagged) → sixteen children; who asks so that everyone shares one instance.
    struct Tree {
        let app = Container(name: "app")
        let session: Container
        let children: [Container]

        init() {
            let session = app.child(name: "session", tags: ["session"])
            self.session = session
            children = (0..<16).map { session.child(name: "screen\($0)") }
        }

        func asker(_ worker: Int, for keeping: Keeping) -> Container {
            switch keeping {
            case .scoped: session
            case .singleton, .cached, .weak, .matching: worker % 2 == 0 ? children[worker] : session
            }
        }
    }

    static let deadline = Duration.seconds(30)

    @Test(.timeLimit(.minutes(1)), arguments: Keeping.allCases)
    func sixteenThreadsDirectlyAndThroughAnAliasGetOneInstance(keeping: Keeping) async throws {
        for round in 0..<5 {
            let tree = Tree()
            let builds = Counter()
            try tree.app.register(Resource.self, scope: keeping.scope) { _ in
                builds.increment()
                usleep(500)
                return Resource(version: 0)
            }.implements((any Handle).self)
            let keep = Keeper<Resource>()
            let outcomes = await raceOnThreads(16, within: Self.deadline) { worker in
                Outcome {
                    let container = tree.asker(worker, for: keeping)
                    let resource = worker % 3 == 0
                        ? try container.resolve((any Handle).self) as! Resource
                        : try container.resolve(Resource.self)
                    keep.keep(resource)
                    return resource
                }
            }
            let finished = try #require(outcomes, "round \(round): threads blocked")
            #expect(builds.value == 1, "round \(round)")
            #expect(Set(finished).count == 1, "round \(round): \(Set(finished))")
        }
    }

    @Test(.timeLimit(.minutes(1)), arguments: Keeping.allCases)
    func sixteenTasksDirectlyAndThroughAnAliasGetOneAsyncInstance(keeping: Keeping) async throws {
        for round in 0..<5 {
            let tree = Tree()
            let builds = Counter()
            try tree.app.registerAsync(Resource.self, scope: keeping.scope) { _ in
                builds.increment()
                try await Task.sleep(for: .milliseconds(2))
                return Resource(version: 0)
            }.implements((any Handle).self)
            let keep = Keeper<Resource>()
            let outcomes = await finishing(within: Self.deadline) {
                await withTaskGroup(of: Outcome.self) { group in
                    for worker in 0..<16 {
                        group.addTask {
                            await Outcome {
                                let container = tree.asker(worker, for: keeping)
                                let resource = worker % 3 == 0
                                    ? try await container.resolveAsync((any Handle).self) as! Resource
                                    : try await container.resolveAsync(Resource.self)
                                keep.keep(resource)
                                return resource
                            }
                        }
                    }
                    return await group.reduce(into: [Outcome]()) { $0.append($1) }
                }
            }
            let finished = try #require(outcomes, "round \(round): tasks suspended")
            #expect(builds.value == 1, "round \(round)")
            #expect(Set(finished).count == 1, "round \(round): \(Set(finished))")
        }
    }

    /// For a bounded time: threads resolve a `.cached` and a `.scoped` service while one thread resets the
    /// caches, one re-registers a key (each time with a higher version), and one makes children, resolves
    /// in them and closes them; tasks resolve an async `.cached` service meanwhile. Afterwards each cached
    /// registration was built at most once per reset, and every key resolves, undisposed, to its last
    /// registration.
    @Test(.timeLimit(.minutes(1)))
    func resetsReRegistrationsAndClosesRacingResolves() async throws {
        let tree = Tree()
        let app = tree.app
        let cachedBuilds = Counter()
        let asyncBuilds = Counter()
        let resets = Counter()
        let lastVersion = Lock<Int>(0)
        let problems = Keeper<String>()
        try app.register(Resource.self, name: "cached", scope: .cached) { _ in
            cachedBuilds.increment()
            return Resource(version: 0)
        }
        try app.registerAsync(Resource.self, name: "asyncCached", scope: .cached) { _ in
            asyncBuilds.increment()
            await Task.yield()
            return Resource(version: 0)
        }
        try app.register(Resource.self, name: "scoped", scope: .scoped) { _ in Resource(version: 0) }
        try app.register(Resource.self, name: "versioned", scope: .singleton) { _ in Resource(version: 0) }
            .implements((any Handle).self, name: "versioned")
        let stop = ContinuousClock.now + .milliseconds(1_500)

        async let tasks: Void = withTaskGroup(of: Void.self) { group in
            for _ in 0..<3 {
                group.addTask {
                    while ContinuousClock.now < stop {
                        do { _ = try await app.resolveAsync(Resource.self, name: "asyncCached") } catch {
                            problems.keep("resolveAsync: \(error)")
                        }
                    }
                }
            }
        }

        let threads = await raceOnThreads(6, within: Self.deadline) { role in
            var iteration = 0
            while ContinuousClock.now < stop {
                iteration += 1
                do {
                    switch role {
                    case 0, 1:
                        let container = role == 0 ? app : tree.children[iteration % 16]
                        _ = try container.resolve(Resource.self, name: "cached")
                        _ = try tree.session.resolve(Resource.self, name: "scoped")
                        let handle = try tree.children[iteration % 16].resolve((any Handle).self, name: "versioned")
                        if (handle as! Resource).version > lastVersion.withLock({ $0 }) {
                            problems.keep("an alias handed out a version not yet registered")
                        }
                    case 2:
                        app.reset(.cached)
                        resets.increment()
                        tree.session.reset(.scoped)
                    case 3:
                        // The only writer of "versioned": its version only grows.
                        // Announced before it is registered: a reader may see the registration at once.
                        let version = iteration
                        lastVersion.withLock { $0 = version }
                        try app.register(Resource.self, name: "versioned", scope: .singleton) { _ in
                            Resource(version: version)
                        }
                    default:
                        let child = tree.session.child(name: "late\(iteration)")
                        let scoped = try child.resolve(Resource.self, name: "scoped")
                        child.close()
                        if !scoped.isDisposed { problems.keep("closing a child did not dispose its .scoped instance") }
                        do {
                            _ = try child.resolve(Resource.self, name: "scoped")
                            problems.keep("a closed child still resolves")
                        } catch let error as ResolutionError where error.code == .containerClosed {}
                    }
                } catch {
                    problems.keep("role \(role): \(error)")
                }
            }
            return iteration
        }
        await tasks
        _ = try #require(threads, "threads still blocked after \(Self.deadline)")
        #expect(problems.values.isEmpty, "\(problems.values.prefix(10))")
        #expect(cachedBuilds.value <= resets.value + 1, "\(cachedBuilds.value) builds for \(resets.value) resets")
        #expect(asyncBuilds.value <= resets.value + 1, "\(asyncBuilds.value) async builds for \(resets.value) resets")
        let last = lastVersion.withLock { $0 }
        let direct = try app.resolve(Resource.self, name: "versioned")
        #expect(direct.version == last)
        #expect(!direct.isDisposed)
        let alias = try tree.children[0].resolve((any Handle).self, name: "versioned") as! Resource
        #expect(alias === direct, "the alias does not follow the last registration")
        #expect(!alias.isDisposed)
        #expect(try !app.resolve(Resource.self, name: "cached").isDisposed)
    }

    /// Threads make children, resolve a `.scoped` (or `.matching`) service from each, close it and drop it, while
    /// another thread registers the service again and again: each registration reaches the children's instances
    /// of the one it replaces while their threads drop them, and every instance built is disposed exactly once —
    /// by the registration that replaced its own, or by its child's close.
    @Test(.timeLimit(.minutes(1)), arguments: [Keeping.scoped, .matching], [1, 2, 3, 16])
    func childrenComeAndGoWhileTheirServiceIsRegisteredAgain(keeping: Keeping, threads: Int) async throws {
        let (app, log, builds) = (Container(name: "app"), Log(), Counter())
        let register = { @Sendable in
            _ = try app.register(Widget.self, scope: keeping.scope) { _ in
                Widget(origin: "app", serial: builds.increment(), log: log)
            }
        }
        try register()
        let outcomes = await registerAgain(register, whileThreads: threads) {
            let child = app.child(name: "request", tags: ["session"])
            defer { child.close() }
            return (try? child.resolve(Widget.self)) != nil
        }
        #expect(outcomes == Array(repeating: true, count: threads + 1), "a thread failed or hung")
        let disposed = log.entries
        #expect(Set(disposed).count == disposed.count, "an instance was disposed twice")
        #expect(disposed.count == builds.value, "built \(builds.value), disposed \(disposed.count)")
    }
}
