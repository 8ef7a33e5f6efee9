import DICore
import DIScopes
import DITestSupport
import Foundation
import Testing

/// A container keeps its first few per-container instances in cells, found and filled without its lock, and
/// the rest in its slot store: both kinds are built once, handed out as one instance, and disposed once, newest
/// first, when the container closes or the registration is replaced; around the number of cells, from many
/// threads, against a close, a replacement and a cycle. Run also under `swift test --sanitize=thread`.
@Suite(.timeLimit(.minutes(1))) struct KeptCellsTests {
    /// An app whose `count` services `s0`, `s1`, … are `.matching("request")` widgets; every even one first
    /// resolves the next one, and `s3` the request's own singleton `own`, so the order of the builds is not
    /// the order of the first asks. Each widget's serial is the order in which its build ended.
    private struct Shop {
        let app = Container(name: "app")
        let log = Log()
        let builds = Counter()
        let count: Int

        init(count: Int) throws {
            self.count = count
            let (log, builds) = (log, builds)
            for index in 0..<count {
                try app.register(Widget.self, name: "s\(index)", scope: .matching("request")) { r in
                    if index.isMultiple(of: 2), index + 1 < count {
                        _ = try r.resolve(Widget.self, name: "s\(index + 1)")
                    }
                    if index == 3 { _ = try r.resolve(Widget.self, name: "own") }
                    return Widget(origin: "s\(index)", serial: builds.increment(), log: log)
                }
            }
        }

        /// Twenty rounds of `threadsAsking…`/`tasksAsking…`: each asks a new request's container with `ask`
        /// (which returns each service it got), checks that each service was handed out as one instance and built
        /// once (with `own`), closes the container (`closesAsync`) and checks that every instance was disposed
        /// once.
        func askInRounds(
            closesAsync: Bool,
            _ ask: (Container) async throws -> [(index: Int, widget: Widget?)]
        ) async throws {
            for round in 0..<20 {
                let request = try request()
                let before = builds.value
                let seen = try await ask(request)
                for index in 0..<count {
                    let instances = seen.filter { $0.index == index }.map(\.widget)
                    #expect(instances.allSatisfy { $0 != nil && $0 === instances[0] }, "round \(round), s\(index)")
                }
                #expect(builds.value - before == count + 1, "round \(round)")
                if closesAsync { await request.closeAsync() } else { request.close() }
                #expect(log.entries.count == builds.value, "round \(round)")
            }
            #expect(Set(log.entries).count == log.entries.count)
        }

        /// The order in which asker `asker` asks for the services.
        func order(of asker: Int) -> [Int] {
            (0..<count).map { step in (step * (asker + 1) + asker) % count }
        }

        /// A request's container, with its own singleton `own`.
        func request() throws -> Container {
            let request = app.child(name: "request", tags: ["request"])
            let (log, builds) = (log, builds)
            try request.register(Widget.self, name: "own", scope: .singleton) { _ in
                Widget(origin: "own", serial: builds.increment(), log: log)
            }
            return request
        }
    }

    @Test(arguments: [1, 7, 8, 9, 20], [false, true])
    func everyKeptInstanceIsBuiltOnceAndDisposedOnceNewestFirst(count: Int, closesAsync: Bool) async throws {
        let shop = try Shop(count: count)
        let request = try shop.request()
        var first: [Widget] = []
        for index in 0..<count { first.append(try request.resolve(Widget.self, name: "s\(index)")) }
        for index in (0..<count).reversed() {
            #expect(try request.resolve(Widget.self, name: "s\(index)") === first[index], "s\(index)")
        }
        let built = shop.builds.value
        #expect(built == count + (count > 3 ? 1 : 0))
        if closesAsync { await request.closeAsync() } else { request.close() }
        #expect(shop.log.entries == (1...built).reversed().map { "dispose \($0)" })
    }

    /// A reset drops the instances in cells and in the slot store, newest first, and the next resolves build
    /// new ones.
    @Test(arguments: [3, 9, 12])
    func aResetDisposesTheKeptInstancesNewestFirst(count: Int) throws {
        let shop = try Shop(count: count)
        let request = try shop.request()
        let first = try (0..<count).map { try request.resolve(Widget.self, name: "s\($0)") }
        let serials = first.map(\.serial).sorted()
        #expect(request.reset(.matching("request")) == count)
        #expect(shop.log.entries == serials.reversed().map { "dispose \($0)" })
        #expect(try request.resolve(Widget.self, name: "s0") !== first[0])
        request.close()
    }

    /// The async twin of the above: the services resolved with `resolveAsync`.
    @Test(arguments: [3, 9])
    func keptInstancesResolvedAsynchronouslyAreTheSameAndDisposedOnce(count: Int) async throws {
        let shop = try Shop(count: count)
        let request = try shop.request()
        for index in 0..<count {
            let asynchronously = try await request.resolveAsync(Widget.self, name: "s\(index)")
            #expect(asynchronously === (try request.resolve(Widget.self, name: "s\(index)")))
        }
        await request.closeAsync()
        #expect(shop.log.entries == (1...shop.builds.value).reversed().map { "dispose \($0)" })
    }

    /// Every thread asks a new request's container for every service, each in its own order: one instance
    /// per service, built once, disposed once. 1, 2, 3 and 16 threads; cells and slot store (12 services).
    @Test(arguments: [1, 2, 3, 16])
    func threadsAskingOneRequestAtOnceShareOneInstanceOfEach(threads: Int) async throws {
        let shop = try Shop(count: 12)
        try await shop.askInRounds(closesAsync: false) { request in
            let seen = try #require(await raceOnThreads(threads) { thread in
                shop.order(of: thread).map { index in (index, try? request.resolve(Widget.self, name: "s\(index)")) }
            })
            return seen.flatMap { $0 }
        }
    }

    /// The async twin: 1, 2, 3 and 16 tasks.
    @Test(arguments: [1, 2, 3, 16])
    func tasksAskingOneRequestAtOnceShareOneInstanceOfEach(tasks: Int) async throws {
        let shop = try Shop(count: 12)
        try await shop.askInRounds(closesAsync: true) { request in
            try await withThrowingTaskGroup(of: [(index: Int, widget: Widget?)].self) { group in
                for task in 0..<tasks {
                    group.addTask {
                        var seen: [(index: Int, widget: Widget?)] = []
                        for index in shop.order(of: task) {
                            seen.append((index, try await request.resolveAsync(Widget.self, name: "s\(index)")))
                        }
                        return seen
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
        }
    }

    /// A close racing threads that resolve: every instance built is disposed exactly once — by the close, or,
    /// for one stored after it, by the build that found the container closed — and none after the close
    /// returned is handed out by a resolve that started after it.
    @Test(arguments: [1, 2, 3, 16])
    func aCloseRacingResolvesDisposesEveryBuiltInstanceOnce(threads: Int) async throws {
        let shop = try Shop(count: 10)
        for round in 0..<50 {
            let request = try shop.request()
            _ = try #require(await raceOnThreads(threads + 1) { thread in
                if thread == threads {
                    request.close()
                    return
                }
                for step in 0..<10 { _ = try? request.resolve(Widget.self, name: "s\((step + thread) % 10)") }
            })
            #expect(shop.log.entries.count == shop.builds.value, "round \(round)")
            #expect(throws: ResolutionError.self) { try request.resolve(Widget.self, name: "s0") }
        }
        #expect(Set(shop.log.entries).count == shop.log.entries.count)
    }

    /// Two request-scoped services that need each other, asked of the tagged container itself (the cells'
    /// path), end in `circularDependency`: sync, async, and from 3 threads at once.
    @Test func aCycleThroughKeptInstancesEndsInACycleError() async throws {
        let app = Container(name: "app")
        try app.register(Widget.self, name: "a", scope: .matching("request")) { r in
            _ = try r.resolve(Widget.self, name: "b")
            return Widget(origin: "a", serial: 0, log: Log())
        }
        try app.register(Widget.self, name: "b", scope: .matching("request")) { r in
            _ = try r.resolve(Widget.self, name: "a")
            return Widget(origin: "b", serial: 0, log: Log())
        }
        let request = app.child(name: "request", tags: ["request"])
        let error = try #require(throws: ResolutionError.self) { try request.resolve(Widget.self, name: "a") }
        #expect(error.code == .circularDependency)
        await #expect(throws: ResolutionError.self) { try await request.resolveAsync(Widget.self, name: "b") }
        let outcomes = try #require(await raceOnThreads(3) { thread in
            do {
                _ = try request.resolve(Widget.self, name: thread.isMultiple(of: 2) ? "a" : "b")
                return "resolved"
            } catch let error as ResolutionError {
                return "\(error.code)"
            } catch {
                return "\(error)"
            }
        })
        #expect(outcomes.allSatisfy { $0 == "circularDependency" }, "\(outcomes)")
    }

    /// The same cycle through the ambient container: the second factory resolves through `Container.current`,
    /// not its resolver.
    @Test func aCycleThroughKeptInstancesAndTheAmbientContainerEndsInACycleError() throws {
        let app = Container(name: "app")
        try app.register(Widget.self, name: "a", scope: .matching("request")) { r in
            _ = try r.resolve(Widget.self, name: "b")
            return Widget(origin: "a", serial: 0, log: Log())
        }
        try app.register(Widget.self, name: "b", scope: .matching("request")) { _ in
            _ = try Container.current.resolve(Widget.self, name: "a")
            return Widget(origin: "b", serial: 0, log: Log())
        }
        let request = app.child(name: "request", tags: ["request"])
        let error = try #require(throws: ResolutionError.self) {
            try withContainer(request) { try request.resolve(Widget.self, name: "a") }
        }
        #expect(error.code == .circularDependency)
    }

    /// An alias of a request-scoped service hands out the instance in its target's cell, from any thread, and
    /// moves along when the target is registered again; the replaced instance is disposed once.
    @Test func anAliasOfAKeptServiceSharesItsCell() async throws {
        let app = Container(name: "app")
        let log = Log()
        let builds = Counter()
        try app.register(Widget.self, scope: .matching("request")) { _ in
            Widget(origin: "first", serial: builds.increment(), log: log)
        }.implements((any Part).self)
        let request = app.child(name: "request", tags: ["request"])
        let seen = try #require(await raceOnThreads(3) { thread -> (any Part)? in
            thread == 0 ? try? request.resolve(Widget.self) : try? request.resolve((any Part).self)
        })
        #expect(seen.allSatisfy { $0 != nil && $0 === seen[0] })
        #expect(builds.value == 1)
        try app.register(Widget.self, scope: .matching("request")) { _ in
            Widget(origin: "second", serial: builds.increment(), log: log)
        }
        #expect(log.entries == ["dispose 1"])
        let part = try request.resolve((any Part).self)
        #expect(part === (try request.resolve(Widget.self)))
        #expect((part as? Widget)?.origin == "second")
        request.close()
        #expect(log.entries == ["dispose 1", "dispose 2"])
    }

    /// Re-registering a request-scoped service thousands of times while a tagged container lives: each
    /// replaced instance is disposed at once, exactly once, the latest at close, and the replaced
    /// registrations are freed (their cells retired, then the slot store used), so memory stays bounded. In a
    /// process of its own: tests running in parallel hold read sections, which rightly keep replaced tables
    /// (and their registrations) alive for a while.
    @Test func reRegisteringThousandsOfTimesDisposesEachReplacedInstanceAndKeepsNoRegistration() async {
        await #expect(processExitsWith: .success) {
            let app = Container(name: "app")
            let session = app.child(name: "session", tags: ["session"])
            let log = Log()
            var tokens: [WeakToken] = []
            for generation in 1...2_000 {
                let token = Token()
                tokens.append(WeakToken(token))
                try app.register(Widget.self, scope: .matching("session")) { _ in
                    _ = token
                    return Widget(origin: "session", serial: generation, log: log)
                }
                guard try session.resolve(Widget.self).serial == generation else { exit(1) }
                guard log.entries.count == generation - 1 else { exit(2) }
            }
            session.close()
            guard log.entries == (1...2_000).map({ "dispose \($0)" }) else { exit(3) }
            // The latest few tables wait for the next reclamation; all 1,999 would be alive if anything kept them.
            let alive = tokens.dropLast().filter { $0.object != nil }.count
            exit(alive < 20 ? 0 : 4)
        }
    }

    /// A build that started before its registration was replaced and ends after it: the instance is handed to
    /// its asker and disposed once, when the container closes (its cell was retired meanwhile).
    @Test func aBuildEndingAfterItsRegistrationWasReplacedIsDisposedOnceAtClose() async throws {
        let app = Container(name: "app")
        let request = app.child(name: "request", tags: ["request"])
        let log = Log()
        let (entered, proceed) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        try app.register(Widget.self, scope: .matching("request")) { _ in
            entered.signal()
            proceed.wait()
            return Widget(origin: "old", serial: 1, log: log)
        }
        let late = Task.detached { try request.resolve(Widget.self) }
        entered.wait()
        try app.register(Widget.self, scope: .matching("request")) { _ in Widget(origin: "new", serial: 2, log: log) }
        proceed.signal()
        #expect(try await late.value.serial == 1)
        #expect(log.entries.isEmpty)
        #expect(try request.resolve(Widget.self).serial == 2)
        request.close()
        #expect(log.entries == ["dispose 2", "dispose 1"])
    }
}

/// What a `Widget` is also registered as, for aliases.
protocol Part: AnyObject, Sendable {}
extension Widget: Part {}

/// An object a factory captures, to tell whether its registration is still alive.
private final class Token: Sendable {}

private struct WeakToken {
    weak var object: Token?
    init(_ object: Token) { self.object = object }
}
