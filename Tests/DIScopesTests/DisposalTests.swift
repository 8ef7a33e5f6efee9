import DICore
import DIScopes
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

    /// The holder of a `.scoped` or `.matching` instance closes while its factory runs: the instance is disposed
    /// once and not handed out, with `resolve` and `resolveAsync` alike; its slot is left empty.
    @Test(arguments: [KeptLifetime.scoped, .matching], [false, true])
    func anInstanceFinishedAfterItsHolderClosedIsDisposedAndNotHandedOut(
        lifetime: KeptLifetime, async: Bool
    ) async throws {
        let app = Container(name: "app")
        let feature = app.child(name: "feature", tags: ["feature"])
        let log = Log()
        let serials = Counter()
        try app.register(Widget.self, scope: lifetime.makeScope()) { _ in
            feature.close()     // the holder closes while this build runs
            return Widget(origin: "app", serial: serials.increment(), log: log)
        }
        let error = try await #require(throws: ResolutionError.self) {
            async ? try await feature.resolveAsync(Widget.self) : try feature.resolve(Widget.self)
        }
        #expect(error.code == .containerClosed)
        #expect(log.entries == ["dispose 1"])
        #expect(feature.heldInstances.isEmpty)
        #expect(feature.slots.all.allSatisfy { $0.slot.current($0.registration) == nil })
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
