import DICore
import DIScopes
import DITestSupport
import Foundation
import Testing

/// The lifetimes that keep instances, with where to resolve from and which container holds the instance.
enum KeptLifetime: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case scoped, cached, matching, custom

    var testDescription: String { rawValue }

    func makeScope() -> Scope {
        switch self {
        case .scoped: .scoped
        case .cached: .cached
        case .matching: .matching("feature")
        case .custom: .custom("custom", storage: DictionaryStorage())
        }
    }

    /// Resolved from `screen`, the instance is held by: the asking container (`.scoped`), the registering
    /// one (`.cached`, and custom storages by registration), or the tagged one (`.matching`).
    func holder(in tree: Tree) -> Container {
        switch self {
        case .scoped: tree.screen
        case .cached, .custom: tree.app
        case .matching: tree.feature
        }
    }
}

@Suite(.timeLimit(.minutes(1))) struct DisposalTests {
    @Test(arguments: KeptLifetime.allCases)
    func theHolderDisposesOnCloseAndNoOtherContainerDoes(lifetime: KeptLifetime) throws {
        let tree = try Tree(widget: lifetime.makeScope())
        let widget = try tree.screen.resolve(Widget.self)
        let holder = lifetime.holder(in: tree)
        // Close the containers below the holder on the asking path, asking one first: none of them holds it.
        for container in [tree.screen, tree.feature] {
            if container === holder { break }
            container.close()
            #expect(tree.log.entries.isEmpty, "\(container.name) does not hold it")
        }
        holder.close()
        #expect(tree.log.entries == ["dispose \(widget.serial)"])
        tree.app.close()
        #expect(tree.log.entries.count == 1, "disposed once")
    }

    @Test(arguments: KeptLifetime.allCases)
    func registeringTheKeyAgainDisposesWhatTheOldRegistrationBuiltWhereverItIsHeld(lifetime: KeptLifetime) throws {
        let scope = lifetime.makeScope()
        let tree = try Tree(widget: scope)
        let old = try tree.screen.resolve(Widget.self)
        let log = tree.log
        try tree.app.register(Widget.self, scope: scope) { _ in Widget(origin: "new", serial: 100, log: log) }
        #expect(tree.log.entries == ["dispose \(old.serial)"])
        let new = try tree.screen.resolve(Widget.self)
        #expect(new.serial == 100)
        tree.app.close()
        #expect(tree.log.entries == ["dispose \(old.serial)", "dispose 100"])
    }

    @Test func registeringAWeakKeyAgainStopsHandingOutTheOldInstanceWithoutDisposingIt() throws {
        let tree = try Tree(widget: .weak)
        let old = try tree.feature.resolve(Widget.self)
        let log = tree.log
        try tree.app.register(Widget.self, scope: .weak) { _ in Widget(origin: "new", serial: 100, log: log) }
        #expect(try tree.feature.resolve(Widget.self) !== old)
        #expect(tree.log.entries.isEmpty)
    }

    @Test func closeDisposesChildrenFirstThenNewestFirstAcrossScopes() throws {
        let app = Container(name: "app")
        let feature = app.child(name: "feature", tags: ["feature"])
        let log = Log()
        let serials = Counter()
        for (name, scope) in [("cached", Scope.cached), ("scoped", .scoped), ("matching", .matching("feature"))] {
            try app.register(Widget.self, name: name, scope: scope) { _ in
                Widget(origin: name, serial: serials.increment(), log: log)
            }
        }
        let cached = try feature.resolve(Widget.self, name: "cached")       // 1, held by app
        let scopedInApp = try app.resolve(Widget.self, name: "scoped")      // 2, held by app
        let matching = try feature.resolve(Widget.self, name: "matching")   // 3, held by feature
        let scoped = try feature.resolve(Widget.self, name: "scoped")       // 4, held by feature
        app.close()
        #expect(log.entries == [scoped, matching, scopedInApp, cached].map { "dispose \($0.serial)" })
    }

    @Test(arguments: KeptLifetime.allCases.map(\.rawValue) + ["weak", "graph"])
    func aClosedContainerRefusesToResolveEveryScope(lifetime: String) throws {
        let scope: Scope = switch lifetime {
        case "weak": .weak
        case "graph": .graph
        default: KeptLifetime(rawValue: lifetime)!.makeScope()
        }
        let tree = try Tree(widget: scope)
        tree.feature.close()
        let error = try #require(throws: ResolutionError.self) { try tree.screen.resolve(Widget.self) }
        #expect(error.code == .containerClosed)
    }

    /// The holder of a kept instance closes while its factory runs: the instance is disposed once and not handed
    /// out, with `resolve` and `resolveAsync` alike; its slot is left empty.
    @Test(arguments: KeptLifetime.allCases, [false, true])
    func anInstanceFinishedAfterItsHolderClosedIsDisposedAndNotHandedOut(
        lifetime: KeptLifetime, async: Bool
    ) async throws {
        let app = Container(name: "app")
        let feature = app.child(name: "feature", tags: ["feature"])
        let holder = lifetime.lateBuildHolder == .app ? app : feature
        let log = Log()
        let serials = Counter()
        try app.register(Widget.self, scope: lifetime.makeScope()) { _ in
            holder.close()     // the holder closes while this build runs
            return Widget(origin: "app", serial: serials.increment(), log: log)
        }
        let error = try await #require(throws: ResolutionError.self) {
            async ? try await feature.resolveAsync(Widget.self) : try feature.resolve(Widget.self)
        }
        #expect(error.code == .containerClosed)
        #expect(log.entries == ["dispose 1"])
        #expect(holder.heldInstances.isEmpty)
        #expect(holder.slots.all.allSatisfy { $0.slot.current($0.registration) == nil })
    }

    /// The holder closes while one asker builds and the others wait for that build: the close refuses the
    /// instance (disposed once), and the askers that waited get `containerClosed` without running the factory
    /// again for a container that can hold nothing. With threads and with tasks, 1, 2, 3 and 16 askers.
    @Test(arguments: KeptLifetime.allCases, [1, 2, 3, 16])
    func askersWaitingForABuildTheCloseRefusedDoNotBuildAgain(lifetime: KeptLifetime, askers: Int) async throws {
        for async in [false, true] {
            let late = try LateBuild(lifetime.makeScope(), heldBy: lifetime.lateBuildHolder, async: async) {
                Widget(origin: "app", serial: $0, log: $1)
            }
            let outcomes = try await late.askClosingMeanwhile(
                askers: askers,
                async ? .async { try await $0.resolveAsync(Widget.self) } : .sync { try $0.resolve(Widget.self) }
            )
            #expect(late.builds.value == 1, "async: \(async)")
            #expect(outcomes.allSatisfy { $0 == .failed(.containerClosed) }, "async: \(async), \(outcomes)")
            #expect(late.log.entries == ["dispose 1"], "async: \(async)")
        }
    }

    /// Each asker the close refused is told that the close came while the instance was being built, and that the
    /// instance was disposed — not that the lookup was refused by a closed container ("not looked up"), whose
    /// advice (resolve from a container that is still open) it had followed. The builder and those that waited,
    /// with threads and with tasks.
    @Test(arguments: KeptLifetime.allCases)
    func askersRefusedByACloseDuringTheBuildAreToldTheCloseCameMeanwhile(lifetime: KeptLifetime) async throws {
        for async in [false, true] {
            let late = try LateBuild(lifetime.makeScope(), heldBy: lifetime.lateBuildHolder, async: async) {
                Widget(origin: "app", serial: $0, log: $1)
            }
            let messages = Log()
            let outcomes = try await late.askClosingMeanwhile(
                askers: 3,
                async
                    ? .async { container in
                        do { return try await container.resolveAsync(Widget.self) } catch {
                            messages.append("\(error)")
                            throw error
                        }
                    }
                    : .sync { container in
                        do { return try container.resolve(Widget.self) } catch {
                            messages.append("\(error)")
                            throw error
                        }
                    }
            )
            #expect(outcomes.allSatisfy { $0 == .failed(.containerClosed) }, "async: \(async), \(outcomes)")
            let holder = late.holder.name
            #expect(messages.entries.count == 3, "async: \(async)")
            for message in messages.entries {
                #expect(message.contains("Cannot resolve Widget: \(holder) was closed while it was being built."))
                #expect(message.contains("The resolve began before close(), and the instance built meanwhile has "
                    + "been disposed instead of handed out. Close \(holder) only once the work that resolves from "
                    + "it is done"), "async: \(async): \(message)")
                #expect(!message.contains("not looked up"), "async: \(async): \(message)")
            }
        }
    }

    /// The ancestor of the holder closes while the holder's instance is being built: the error names the ancestor
    /// whose close closed the holder, and says to close it only once nothing uses its children.
    @Test(arguments: [KeptLifetime.scoped, .matching], [false, true])
    func aCloseOfTheHoldersAncestorDuringTheBuildNamesTheAncestor(lifetime: KeptLifetime, async: Bool) async throws {
        let app = Container(name: "app")
        let feature = app.child(name: "feature", tags: ["feature"])
        let log = Log()
        try app.register(Widget.self, scope: lifetime.makeScope()) { _ in
            app.close()
            return Widget(origin: "app", serial: 1, log: log)
        }
        let error = try await #require(throws: ResolutionError.self) {
            async ? try await feature.resolveAsync(Widget.self) : try feature.resolve(Widget.self)
        }
        #expect(error.message == "Cannot resolve Widget: feature was closed while it was being built. feature is "
            + "closed, and so is its ancestor app; the instance built meanwhile has been disposed instead of handed "
            + "out. Close app only once nothing uses its children (a server's app container: once the server has "
            + "stopped taking requests).")
        #expect(log.entries == ["dispose 1"])
    }

    /// An `AsyncDisposable` whose `async` build ends after its holder was closed with `closeAsync()` is refused
    /// and its `dispose()` awaited, once, as `closeAsync()` awaits those it holds (it used to be dropped).
    @Test(arguments: KeptLifetime.allCases, [1, 2, 3, 16])
    func anAsyncDisposableBuiltAfterCloseAsyncIsAwaited(lifetime: KeptLifetime, askers: Int) async throws {
        let late = try LateBuild(lifetime.makeScope(), heldBy: lifetime.lateBuildHolder, async: true) { serial, log in
            Pool(serial: serial, log: log)
        }
        let outcomes = try await late.askClosingMeanwhile(
            askers: askers, closesAsync: true, .async { try await $0.resolveAsync(Pool.self) }
        )
        #expect(late.builds.value == 1)
        #expect(outcomes.allSatisfy { $0 == .failed(.containerClosed) }, "\(outcomes)")
        #expect(late.log.entries == ["drain 1"])
    }

    /// A `.weak` instance's registering container closes while one asker builds it and others wait: the builder,
    /// whose resolve began first, gets the instance (a closed container holds no weak instance, so nothing is
    /// disposed); the askers that waited get `containerClosed` and do not build it again once the builder's
    /// asker drops it.
    @Test(arguments: [1, 2, 3, 16])
    func askersWaitingForAWeakBuildWhoseContainerClosesDoNotBuildAgain(askers: Int) async throws {
        for async in [false, true] {
            let late = try LateBuild(.weak, heldBy: .app, async: async) { serial, log in
                Widget(origin: "app", serial: serial, log: log)
            }
            let outcomes = try await late.askClosingMeanwhile(
                askers: askers,
                async ? .async { try await $0.resolveAsync(Widget.self) } : .sync { try $0.resolve(Widget.self) }
            )
            #expect(late.builds.value == 1, "async: \(async)")
            #expect(outcomes.filter { $0 != .failed(.containerClosed) }.count == 1, "async: \(async), \(outcomes)")
            #expect(late.log.entries.isEmpty, "async: \(async)")
        }
    }

    /// Threads (or tasks) make request containers of `feature`, resolve a kept service from each and close it,
    /// while the test closes the service's holder — `feature` for `.scoped` and `.matching` (requests tagged
    /// like it keep their own), `app` for `.cached` and custom scopes: whichever of a build, a request's close
    /// and the holder's close comes first, every instance built is disposed exactly once, and every resolve
    /// after the holder's close is refused. 1, 2, 3 and 16 workers.
    @Test(.timeLimit(.minutes(1)), arguments: KeptLifetime.allCases, [1, 2, 3, 16])
    func closingWhileWorkersBuildInRequestContainersDisposesEveryInstanceOnce(
        lifetime: KeptLifetime, workers: Int
    ) async throws {
        for async in [false, true] {
            let app = Container(name: "app")
            let feature = app.child(name: "feature", tags: ["feature"])
            let holder = lifetime.lateBuildHolder == .app ? app : feature
            let (log, builds) = (Log(), Counter())
            try app.register(Widget.self, scope: lifetime.makeScope()) { _ in
                Widget(origin: "app", serial: builds.increment(), log: log)
            }
            let begun = DispatchSemaphore(value: 0)
            // The close comes from a thread of its own, once worker 0 has made 20 requests: the workers keep the
            // cooperative pool busy, and a close waiting for a turn there would come only after all their work.
            let closed = DispatchSemaphore(value: 0)
            Thread {
                begun.wait()
                holder.close()
                closed.signal()
            }.start()
            /// Request `request` of `worker`: `true` to go on, `false` once refused; `nil` for another failure.
            @Sendable func outcome(_ worker: Int, _ request: Int, _ body: () throws -> Void) -> Bool? {
                if worker == 0, request == 20 { begun.signal() }
                do {
                    try body()
                    return true
                } catch let error as ResolutionError where error.code == .containerClosed {
                    return false
                } catch {
                    return nil
                }
            }
            @Sendable func request(_ worker: Int, _ request: Int) -> Container {
                feature.child(name: "request \(worker).\(request)", tags: ["feature"])
            }
            let asked = Task { () -> [Bool]? in
                if async {
                    let tasks = (0..<workers).map { worker in
                        Task { () -> Bool in
                            for index in 0..<2_000 {
                                await Task.yield()
                                let container = request(worker, index)
                                defer { container.close() }
                                // Outside `outcome`: an `async` body cannot go through its synchronous closure.
                                var failure: (any Error)?
                                do { _ = try await container.resolveAsync(Widget.self) } catch { failure = error }
                                guard let goOn = outcome(worker, index, { if let failure { throw failure } })
                                else { return false }
                                if !goOn { return true }
                            }
                            return true
                        }
                    }
                    var done: [Bool] = []
                    for task in tasks { done.append(await task.value) }
                    return done
                }
                return await raceOnThreads(workers) { worker in
                    for index in 0..<2_000 {
                        let container = request(worker, index)
                        defer { container.close() }
                        guard let goOn = outcome(worker, index, { _ = try container.resolve(Widget.self) })
                        else { return false }
                        if !goOn { return true }
                    }
                    return true
                }
            }
            let done = try #require(await asked.value, "the workers did not return")
            begun.signal()  // in case worker 0 stopped before its 20th request: the close still comes
            await closed.waitOffThePool()
            #expect(done.allSatisfy { $0 }, "a resolve failed otherwise (async: \(async))")
            #expect(throws: ResolutionError.self) { try feature.child(name: "late").resolve(Widget.self) }
            app.close()
            let disposed = log.entries
            #expect(Set(disposed).count == disposed.count, "disposed twice (async: \(async)): \(disposed.count)")
            #expect(
                disposed.count == builds.value, "built \(builds.value), disposed \(disposed.count) (async: \(async))"
            )
        }
    }

    @Test func closeAsyncAwaitsAsyncDisposalNewestFirst() async throws {
        final class Pool: AsyncDisposable, Sendable {
            let name: String
            let log: Log
            init(_ name: String, _ log: Log) {
                self.name = name
                self.log = log
            }
            func dispose() async {
                await Task.yield()
                log.append("drain \(name)")
            }
        }
        final class Both: Disposable, AsyncDisposable, Sendable {
            let log: Log
            init(_ log: Log) { self.log = log }
            func dispose() { log.append("sync both") }
            func dispose() async { log.append("async both") }
        }
        let app = Container(name: "app")
        let child = app.child(name: "child")
        let log = Log()
        try app.register(Pool.self, name: "app", scope: .cached) { _ in Pool("app", log) }
        try app.register(Both.self, scope: .singleton) { _ in Both(log) }
        try app.register(Pool.self, name: "child", scope: .scoped) { _ in Pool("child", log) }
        _ = try app.resolve(Pool.self, name: "app")
        _ = try app.resolve(Both.self)
        _ = try child.resolve(Pool.self, name: "child")
        await app.closeAsync()
        #expect(log.entries == ["drain child", "async both", "drain app"])
        #expect(child.isClosed && app.isClosed)
        await app.closeAsync()
        #expect(log.entries.count == 3, "closing twice does nothing more")
    }

    @Test func theSynchronousCloseCallsOnlyTheSynchronousDispose() throws {
        final class Both: Disposable, AsyncDisposable, Sendable {
            let log: Log
            init(_ log: Log) { self.log = log }
            func dispose() { log.append("sync") }
            func dispose() async { log.append("async") }
        }
        let app = Container(name: "app")
        let log = Log()
        try app.register(Both.self, scope: .cached) { _ in Both(log) }
        _ = try app.resolve(Both.self)
        app.close()
        #expect(log.entries == ["sync"])
    }
}

/// An `AsyncDisposable` service that logs its disposal.
private final class Pool: AsyncDisposable, Sendable {
    let serial: Int
    let log: Log

    init(serial: Int, log: Log) {
        self.serial = serial
        self.log = log
    }

    func dispose() async {
        await Task.yield()
        log.append("drain \(serial)")
    }
}

extension KeptLifetime {
    /// Which container of a `LateBuild` keeps the instance asked of `feature`: the one the test closes.
    var lateBuildHolder: LateBuildHolder {
        switch self {
        case .scoped, .matching: .feature
        case .cached, .custom: .app
        }
    }
}

/// The container of a `LateBuild` that keeps its instance.
enum LateBuildHolder: Sendable {
    /// The registering container, closed with its child.
    case app
    /// The child the askers resolve from, tagged `feature`.
    case feature
}

/// A service registered in `app` with a lifetime kept by `holder`, asked of `feature`, whose first build waits
/// at a gate while the test closes `holder`.
private struct LateBuild<Service: AnyObject & Sendable> {
    let app = Container(name: "app")
    let feature: Container
    let holder: Container
    let log = Log()
    let builds = Counter()
    private let entered = DispatchSemaphore(value: 0)
    private let proceed = DispatchSemaphore(value: 0)

    init(
        _ scope: Scope, heldBy holder: LateBuildHolder, async: Bool,
        make: @escaping @Sendable (Int, Log) -> Service
    ) throws {
        feature = app.child(name: "feature", tags: ["feature"])
        self.holder = holder == .app ? app : feature
        let (log, builds, entered, proceed) = (log, builds, entered, proceed)
        if async {
            try app.registerAsync(Service.self, scope: scope) { _ in
                let serial = builds.increment()
                if serial == 1 {
                    entered.signal()
                    await proceed.waitOffThePool()
                }
                return make(serial, log)
            }
        } else {
            try app.register(Service.self, scope: scope) { _ in
                let serial = builds.increment()
                if serial == 1 {
                    entered.signal()
                    proceed.wait()
                }
                return make(serial, log)
            }
        }
    }

    /// How each asker resolves from `feature`.
    enum Ask: Sendable {
        /// On a thread of its own, so that its wait blocks no task.
        case sync(@Sendable (Container) throws -> Service)
        /// In a task of its own.
        case async(@Sendable (Container) async throws -> Service)
    }

    /// Starts `askers` resolves of `feature` with `ask`; closes `holder` once the first build waits at the gate
    /// and the others had time to queue behind it; then lets the build finish. Returns how each resolve ended.
    func askClosingMeanwhile(askers: Int, closesAsync: Bool = false, _ ask: Ask) async throws -> [Outcome] {
        let (feature, holder) = (feature, holder)
        let asked = Task { () -> [Outcome]? in
            switch ask {
            case .sync(let resolve):
                return await raceOnThreads(askers) { _ in Outcome { try resolve(feature) } }
            case .async(let resolve):
                let tasks = (0..<askers).map { _ in Task { await Outcome { try await resolve(feature) } } }
                var outcomes: [Outcome] = []
                for task in tasks { outcomes.append(await task.value) }
                return outcomes
            }
        }
        await entered.waitOffThePool()
        try await Task.sleep(for: .milliseconds(20))
        if closesAsync { await holder.closeAsync() } else { holder.close() }
        proceed.signal()
        return try #require(await asked.value, "the askers did not return")
    }
}
