import DICore
import DIScopes
import DITestSupport
import Foundation
import Testing

/// The lifetimes whose one instance is shared by several asking containers.
enum SharedLifetime: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case scoped, cached, weak, matching, custom

    var testDescription: String { rawValue }

    func makeScope() -> Scope {
        switch self {
        case .scoped: .scoped
        case .cached: .cached
        case .weak: .weak
        case .matching: .matching("feature")
        case .custom: .custom("custom", storage: DictionaryStorage())
        }
    }

    /// Containers that all get the same instance: `.scoped` has one per asking container, so only `screen`.
    func askers(app: Container, feature: Container, screen: Container) -> [Container] {
        switch self {
        case .scoped: [screen]
        case .cached, .weak, .custom: [app, feature, screen]
        case .matching: [feature, screen]
        }
    }
}

/// The concurrency rules ("Concurrency and Reliability" in the DICore docs): every lifetime builds its
/// instance exactly once when many ask at the same moment, and the resettable ones stay consistent when a
/// release races a resolve. Run also under `swift test --sanitize=thread`.
@Suite(.timeLimit(.minutes(1))) struct ScopeConcurrencyTests {
    private struct Setup {
        let app = Container(name: "app")
        let feature: Container
        let screen: Container
        let builds = Counter()
        let keeper = Keeper<AppRouter>()

        init(_ lifetime: SharedLifetime) throws {
            feature = app.child(name: "feature", tags: ["feature"])
            screen = feature.child(name: "screen")
            let (builds, keeper) = (builds, keeper)
            try app.register(AppRouter.self, scope: lifetime.makeScope()) { _ in
                builds.increment()
                usleep(2_000)   // keeps the builder inside the factory while the others arrive
                let router = AppRouter()
                keeper.keep(router)   // so that a `.weak` instance outlives the race
                return router
            }
        }
    }

    @Test(arguments: SharedLifetime.allCases)
    func aHundredTasksAskingAtOnceGetOneInstanceBuiltOnce(lifetime: SharedLifetime) async throws {
        let setup = try Setup(lifetime)
        let askers = lifetime.askers(app: setup.app, feature: setup.feature, screen: setup.screen)
        let routers = try await withThrowingTaskGroup(of: AppRouter.self) { group in
            for index in 0..<100 {
                group.addTask { try askers[index % askers.count].resolve(AppRouter.self) }
            }
            return try await group.reduce(into: [AppRouter]()) { $0.append($1) }
        }
        #expect(setup.builds.value == 1)
        #expect(routers.count == 100)
        #expect(routers.allSatisfy { $0 === routers[0] })
    }

    @Test(arguments: SharedLifetime.allCases)
    func sixteenThreadsAskingAtOnceGetOneInstanceBuiltOnce(lifetime: SharedLifetime) async throws {
        let setup = try Setup(lifetime)
        let askers = lifetime.askers(app: setup.app, feature: setup.feature, screen: setup.screen)
        let seen = Keeper<ObjectIdentifier>()
        let failures = Counter()
        _ = try #require(await raceOnThreads(16) { index in
            do {
                seen.keep(ObjectIdentifier(try askers[index % askers.count].resolve(AppRouter.self)))
            } catch {
                failures.increment()
            }
        }, "threads hung")
        #expect(failures.value == 0)
        #expect(setup.builds.value == 1)
        #expect(Set(seen.values).count == 1)
    }

    @Test(arguments: SharedLifetime.allCases)
    func asyncFactoriesAreBuiltOnceToo(lifetime: SharedLifetime) async throws {
        let app = Container(name: "app")
        let feature = app.child(name: "feature", tags: ["feature"])
        let screen = feature.child(name: "screen")
        let builds = Counter()
        let keeper = Keeper<AppRouter>()
        try app.registerAsync(AppRouter.self, scope: lifetime.makeScope()) { _ in
            builds.increment()
            try await Task.sleep(for: .milliseconds(5))
            let router = AppRouter()
            keeper.keep(router)
            return router
        }
        let askers = lifetime.askers(app: app, feature: feature, screen: screen)
        let routers = try await withThrowingTaskGroup(of: AppRouter.self) { group in
            for index in 0..<50 {
                group.addTask { try await askers[index % askers.count].resolveAsync(AppRouter.self) }
            }
            return try await group.reduce(into: [AppRouter]()) { $0.append($1) }
        }
        #expect(builds.value == 1)
        #expect(routers.allSatisfy { $0 === routers[0] })
    }

    @Test func scopedBuildsOncePerAskingContainerUnderConcurrency() async throws {
        let setup = try Setup(.scoped)
        let children = (0..<4).map { setup.app.child(name: "child\($0)") }
        let pairs = try await withThrowingTaskGroup(of: (Int, AppRouter).self) { group in
            for index in 0..<100 {
                group.addTask { (index % 4, try children[index % 4].resolve(AppRouter.self)) }
            }
            return try await group.reduce(into: [(Int, AppRouter)]()) { $0.append($1) }
        }
        #expect(setup.builds.value == 4)
        for child in 0..<4 {
            let routers = pairs.filter { $0.0 == child }.map(\.1)
            #expect(routers.allSatisfy { $0 === routers[0] })
        }
        #expect(Set(pairs.map { ObjectIdentifier($0.1) }).count == 4)
    }

    @Test func graphGivesEachConcurrentTopLevelResolveItsOwnSharedInstance() async throws {
        final class Part: Sendable {}
        final class Whole: Sendable {
            let left: Part
            let right: Part
            init(_ left: Part, _ right: Part) {
                self.left = left
                self.right = right
            }
        }
        let app = Container(name: "app")
        let builds = Counter()
        try app.register(Part.self, scope: .graph) { _ in
            builds.increment()
            return Part()
        }
        try app.register(Whole.self) { r in Whole(try r.resolve(Part.self), try r.resolve(Part.self)) }
        let wholes = Keeper<Whole>()
        _ = try #require(await raceOnThreads(16) { _ in
            for _ in 0..<20 { if let whole = try? app.resolve(Whole.self) { wholes.keep(whole) } }
        }, "threads hung")
        #expect(wholes.values.count == 320)
        #expect(wholes.values.allSatisfy { $0.left === $0.right })
        #expect(Set(wholes.values.map { ObjectIdentifier($0.left) }).count == 320)
        #expect(builds.value == 320)
    }

    /// Resolvers and a resetter run at once. Every instance built is handed out (no build is thrown away),
    /// and disposed exactly once: by a reset, or by the final close.
    @Test func cachedStaysConsistentWhenResetRacesResolve() async throws {
        let tree = try Tree(widget: .cached)
        let seen = Keeper<Int>()
        let failures = Counter()
        _ = try #require(await raceOnThreads(5) { index in
            if index == 0 {
                for _ in 0..<200 { tree.app.reset(.cached, includingDescendants: true) }
                return
            }
            let container = [tree.app, tree.feature, tree.screen][index % 3]
            for _ in 0..<300 {
                do { seen.keep(try container.resolve(Widget.self).serial) } catch { failures.increment() }
            }
        }, "threads hung")
        #expect(failures.value == 0)
        let last = try tree.screen.resolve(Widget.self)
        #expect(!tree.log.entries.contains("dispose \(last.serial)"), "the instance handed out after the race is live")
        tree.app.close()
        let disposals = tree.log.entries
        #expect(Set(disposals).count == disposals.count, "no instance is disposed twice")
        #expect(disposals.count == tree.builds.value, "every instance built is disposed once")
        #expect(Set(seen.values + [last.serial]).count == tree.builds.value, "every instance built was handed out")
    }

    /// The last strong reference goes on one thread while others resolve: each resolve gets a live instance,
    /// either the old one (still referenced) or a new one, and while someone holds an instance every resolve
    /// returns it.
    @Test func weakStaysConsistentWhenReleaseRacesResolve() async throws {
        let tree = try Tree(widget: .weak)
        let failures = Counter()
        _ = try #require(await raceOnThreads(8) { index in
            let container = [tree.app, tree.feature, tree.screen][index % 3]
            for round in 0..<300 {
                do {
                    let widget = try container.resolve(Widget.self)
                    if widget.origin != "app" { failures.increment() }
                    if round % 50 == 0 && index == 0 { tree.app.reset(.weak) }
                } catch {
                    failures.increment()
                }
            }
        }, "threads hung")
        #expect(failures.value == 0)
        let held = try tree.app.resolve(Widget.self)
        let seen = Keeper<ObjectIdentifier>()
        _ = try #require(await raceOnThreads(8) { index in
            for _ in 0..<100 {
                if let widget = try? [tree.app, tree.feature, tree.screen][index % 3].resolve(Widget.self) {
                    seen.keep(ObjectIdentifier(widget))
                }
            }
        }, "threads hung")
        #expect(Set(seen.values) == [ObjectIdentifier(held)])
        #expect(seen.values.count == 800)
    }

    /// A storage that drops its instances while others resolve: no build is thrown away, and whatever the
    /// storage still has at the end is the instance the next resolve returns.
    @Test func customStaysConsistentWhenTheStorageReleasesWhileOthersResolve() async throws {
        let storage = DictionaryStorage()
        let tree = try Tree(widget: .custom("session", storage: storage))
        let seen = Keeper<Int>()
        let failures = Counter()
        _ = try #require(await raceOnThreads(5) { index in
            if index == 0 {
                for _ in 0..<200 { storage.releaseAll() }
                return
            }
            for _ in 0..<300 {
                do { seen.keep(try tree.screen.resolve(Widget.self).serial) } catch { failures.increment() }
            }
        }, "threads hung")
        #expect(failures.value == 0)
        #expect(Set(seen.values).count == tree.builds.value, "every instance built was handed out")
        let current = try tree.app.resolve(Widget.self)
        #expect(storage.releaseAll().map { ($0.value as? Widget)?.serial } == [current.serial])
    }

    /// The close of a request's container races a reset of its request-scoped instances, round after round:
    /// each instance is disposed exactly once, by one or the other, the close with `close()` and with
    /// `closeAsync()` alike. (Both empty a request-scoped slot under the container's lock, so that only one of
    /// them gets its instance.)
    @Test(.timeLimit(.minutes(1)), arguments: [false, true])
    func aResetRacingTheCloseOfItsContainerDisposesEachInstanceOnce(closesAsync: Bool) async throws {
        let app = Container(name: "app")
        try app.register(DisposalCount.self, scope: .matching("request")) { _ in DisposalCount() }
        try app.register(Holder.self, scope: .matching("request")) { r in Holder(count: try r.resolve()) }
        for round in 0..<200 {
            let request = app.child(name: "request", tags: ["request"])
            let holder = try request.resolve(Holder.self)
            async let closing: Void = closesAsync ? request.closeAsync() : request.close()
            let resets = try #require(await raceOnThreads(2) { _ in request.reset(.matching("request")) })
            await closing
            #expect(resets.count == 2)
            #expect(holder.count.disposals == 1, "round \(round): the dependency")
            #expect(holder.disposals == 1, "round \(round): the service")
            #expect(request.isClosed)
        }
    }
}

/// Counts its own disposals.
private final class DisposalCount: Disposable, Sendable {
    private let count = Counter()
    var disposals: Int { count.value }
    func dispose() { count.increment() }
}

/// Counts its own disposals, and keeps a dependency that does too.
private final class Holder: Disposable, Sendable {
    let count: DisposalCount
    private let own = DisposalCount()
    var disposals: Int { own.disposals }
    init(count: DisposalCount) { self.count = count }
    func dispose() { own.dispose() }
}
