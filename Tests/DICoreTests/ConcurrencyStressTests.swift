import DICore
import DITestSupport
import Foundation
import Synchronization
import Testing

/// Many threads and tasks resolving, registering, overriding, creating and closing children at once, for a
/// bounded time; afterwards: every instance-keeping registration was built exactly once, no registration
/// was lost, and every key resolves to its last registration. Run under `--sanitize=thread` too.
@Suite struct ConcurrencyStressTests {
    final class Built: Sendable {
        let key: String
        init(key: String) { self.key = key }
    }

    protocol Marker: AnyObject, Sendable {}
    final class Shared: Marker {}

    /// Counts builds per key, from any thread.
    final class Builds: Sendable {
        private let counts = Lock<[String: Int]>([:])
        func record(_ key: String) { counts.withLock { $0[key, default: 0] += 1 } }
        subscript(key: String) -> Int { counts.withLock { $0[key] ?? 0 } }
        var all: [String: Int] { counts.withLock { $0 } }
    }

    /// Problems seen by workers, reported at the end (`#expect` from a raw thread has no test to attach to).
    final class Problems: Sendable {
        private let entries = Lock<[String]>([])
        func add(_ entry: String) { entries.withLock { if $0.count < 20 { $0.append(entry) } } }
        var all: [String] { entries.withLock { $0 } }
    }

    static let deadline = Duration.seconds(30)

    enum Route: String, CaseIterable, Sendable {
        case direct, throughAlias, fromOwnChild
    }

    /// Sixteen threads ask for one slow singleton at the same moment, directly, through an alias, or each
    /// from its own child: one build, one instance.
    @Test(.timeLimit(.minutes(1)), arguments: Route.allCases)
    func syncSingletonIsBuiltOnceUnderContention(route: Route) async throws {
        for round in 0..<10 {
            let app = Container(name: "app")
            let builds = Counter()
            try app.register(Shared.self, scope: .singleton) { _ in
                builds.increment()
                usleep(500)
                return Shared()
            }.implements((any Marker).self)
            let children = (0..<16).map { app.child(name: "child \($0)") }
            let outcomes = await raceOnThreads(16, within: Self.deadline) { worker in
                Outcome {
                    switch route {
                    case .direct: try app.resolve(Shared.self)
                    case .throughAlias: try app.resolve((any Marker).self)
                    case .fromOwnChild: try children[worker].resolve(Shared.self)
                    }
                }
            }
            let finished = try #require(outcomes, "round \(round): threads blocked")
            #expect(builds.value == 1, "round \(round)")
            #expect(Set(finished.map(\.description)) == ["an instance"], "round \(round): \(finished)")
            #expect(Set(finished).count == 1, "round \(round): several instances")
        }
    }

    /// The same with an async factory and sixteen tasks.
    @Test(.timeLimit(.minutes(1)), arguments: Route.allCases)
    func asyncSingletonIsBuiltOnceUnderContention(route: Route) async throws {
        for round in 0..<10 {
            let app = Container(name: "app")
            let builds = Counter()
            try app.registerAsync(Shared.self, scope: .singleton) { _ in
                builds.increment()
                try await Task.sleep(for: .milliseconds(2))
                return Shared()
            }.implements((any Marker).self)
            let children = (0..<16).map { app.child(name: "child \($0)") }
            let outcomes = await finishing(within: Self.deadline) {
                await withTaskGroup(of: Outcome.self) { group in
                    for worker in 0..<16 {
                        group.addTask {
                            await Outcome {
                                switch route {
                                case .direct: try await app.resolveAsync(Shared.self)
                                case .throughAlias: try await app.resolveAsync((any Marker).self)
                                case .fromOwnChild: try await children[worker].resolveAsync(Shared.self)
                                }
                            }
                        }
                    }
                    return await group.reduce(into: [Outcome]()) { $0.append($1) }
                }
            }
            let finished = try #require(outcomes, "round \(round): tasks suspended")
            #expect(builds.value == 1, "round \(round)")
            #expect(Set(finished).count == 1, "round \(round): \(finished)")
        }
    }

    /// A synchronous resolve of an async singleton's alias, while its factory runs, is refused, and must
    /// not make the factory run a second time.
    @Test(.timeLimit(.minutes(1)))
    func refusedSyncResolveThroughAnAliasDoesNotBreakExactlyOnce() async throws {
        let app = Container(name: "app")
        let builds = Counter()
        try app.registerAsync(Shared.self, scope: .singleton) { _ in
            builds.increment()
            try await Task.sleep(for: .milliseconds(200))
            return Shared()
        }.implements((any Marker).self)
        async let first = app.resolveAsync(Shared.self)
        // Wait until the factory is running.
        while builds.value == 0 { try await Task.sleep(for: .milliseconds(1)) }
        let refused = #expect(throws: ResolutionError.self) { try app.resolve((any Marker).self) }
        #expect(refused?.code == .asyncResolutionRequired)
        async let second = app.resolveAsync(Shared.self)
        let (a, b) = try await (first, second)
        #expect(a === b)
        #expect(builds.value == 1)
    }

    /// The mixed workload: for a bounded time, threads resolve stable singletons from the root and from
    /// short-lived children, register new keys, re-register (override) keys with increasing values, create
    /// children, override in them and close them, while tasks resolve async singletons.
    @Test(.timeLimit(.minutes(1)))
    func mixedWorkloadKeepsEveryInvariant() async throws {
        let app = Container(name: "app")
        let builds = Builds()
        let problems = Problems()
        let stableKeys = (0..<8).map { "stable\($0)" }
        let asyncKeys = (0..<4).map { "async\($0)" }
        let overriddenKeys = (0..<4).map { "override\($0)" }
        for key in stableKeys {
            try app.register(Built.self, name: key, scope: .singleton) { _ in
                builds.record(key)
                return Built(key: key)
            }
        }
        for key in asyncKeys {
            try app.registerAsync(Built.self, name: key, scope: .singleton) { r in
                builds.record(key)
                await Task.yield()
                _ = try r.resolve(Built.self, name: "stable0")
                return Built(key: key)
            }
        }
        for key in overriddenKeys { try app.register(Int.self, name: key) { _ in 0 } }

        let identities = Lock<[String: ObjectIdentifier]>([:])
        @Sendable func check(_ built: Built, _ key: String) {
            let id = ObjectIdentifier(built)
            let first = identities.withLock { map -> ObjectIdentifier in
                if let known = map[key] { return known }
                map[key] = id
                return id
            }
            if first != id { problems.add("\(key): a second instance") }
            if built.key != key { problems.add("\(key): got \(built.key)") }
        }

        let registered = Lock<[Int]>([])
        let lastWritten = Lock<[String: Int]>([:])
        let stop = ContinuousClock.now + .milliseconds(1_500)
        let workers = 6

        async let asyncSide: Void = {
            await withTaskGroup(of: Void.self) { group in
                for task in 0..<4 {
                    group.addTask {
                        var index = task
                        while ContinuousClock.now < stop {
                            let key = asyncKeys[index % asyncKeys.count]
                            do { check(try await app.resolveAsync(Built.self, name: key), key) } catch {
                                problems.add("resolveAsync \(key): \(error)")
                            }
                            index += 1
                        }
                    }
                }
            }
        }()

        let threads = await raceOnThreads(workers, within: Self.deadline) { role in
            var iteration = 0
            // At least one round each, even when a loaded machine starts a thread after `stop`.
            repeat {
                iteration += 1
                do {
                    switch role {
                    case 0, 1:
                        let key = stableKeys[(iteration + role) % stableKeys.count]
                        check(try app.resolve(Built.self, name: key), key)
                    case 2:
                        let value = iteration
                        try app.register(Int.self, name: "registered\(value)") { _ in value }
                        registered.withLock { $0.append(value) }
                    case 3:
                        // The only writer of the overridden keys: their values only grow.
                        let key = overriddenKeys[iteration % overriddenKeys.count]
                        let value = iteration
                        try app.register(Int.self, name: key) { _ in value }
                        lastWritten.withLock { $0[key] = value }
                    case 4:
                        let child = app.child(name: "churn\(iteration)")
                        let value = iteration
                        try child.register(Int.self, name: "override0") { _ in -value }
                        let key = stableKeys[iteration % stableKeys.count]
                        check(try child.resolve(Built.self, name: key), key)
                        if try child.resolve(Int.self, name: "override0") != -value {
                            problems.add("a child's override was not used")
                        }
                        child.close()
                        do {
                            _ = try child.resolve(Int.self, name: "override0")
                            problems.add("a closed child still resolves")
                        } catch let error as ResolutionError where error.code == .containerClosed {}
                    default:
                        // Reads of overridden keys from the root never go back in time.
                        var seen: [String: Int] = [:]
                        for key in overriddenKeys {
                            let value = try app.resolve(Int.self, name: key)
                            if value < seen[key, default: 0] { problems.add("\(key) went back from \(seen[key]!) to \(value)") }
                            seen[key] = value
                            if value < 0 { problems.add("\(key) resolved a child's override from the root") }
                        }
                    }
                } catch {
                    problems.add("role \(role): \(error)")
                }
            } while ContinuousClock.now < stop
            return iteration
        }
        await asyncSide

        let iterations = try #require(threads, "threads still blocked after \(Self.deadline)")
        #expect(problems.all.isEmpty, "\(problems.all)")
        for key in stableKeys + asyncKeys where builds[key] > 0 {
            #expect(builds[key] == 1, "\(key) built \(builds[key]) times")
        }
        for value in registered.withLock({ $0 }) {
            #expect(try app.resolve(Int.self, name: "registered\(value)") == value, "lost registration \(value)")
        }
        for (key, value) in lastWritten.withLock({ $0 }) {
            #expect(try app.resolve(Int.self, name: key) == value, "\(key) does not resolve to its last registration")
        }
        #expect(iterations.allSatisfy { $0 > 0 })
    }
}
