import DICore
import DITestSupport
import Testing

fileprivate protocol Storing: Sendable {}

extension AsyncProviderTests.Store: Storing {}

/// `AsyncProvider<T>`: the async twins of `ProviderTests`, plus what only an async factory can do.
@Suite(.timeLimit(.minutes(1))) struct AsyncProviderTests {
    actor Store {
        let name: String
        init(name: String) { self.name = name }
        static func open(_ name: String) async -> Store {
            await Task.yield()
            return Store(name: name)
        }
    }

    final class Sync: Sendable {
        let stores: AsyncProvider<Store>
        init(stores: AsyncProvider<Store>) { self.stores = stores }
    }

    @Test(arguments: [(Scope.transient, 3), (Scope.singleton, 1)])
    func eachCallHonoursTheTargetsLifetime(scope: Scope, instances: Int) async throws {
        let app = Container(name: "app")
        let built = Counter()
        try app.registerAsync(Store.self, scope: scope) { _ in
            built.increment()
            return await Store.open("main")
        }
        let stores = try app.resolve(AsyncProvider<Store>.self)
        #expect(built.value == 0)
        var made: [Store] = []
        for _ in 0..<3 { made.append(try await stores()) }
        #expect(Set(made.map(ObjectIdentifier.init)).count == instances)
        #expect(built.value == instances)
    }

    @Test func resolvesSynchronousRegistrationsToo() async throws {
        let app = Container(name: "app")
        try app.register(Formatter.self) { _ in Formatter() }
        let formatters = try app.resolve(AsyncProvider<Formatter>.self)
        let first = try await formatters()
        #expect(try await formatters() !== first)
    }

    @Test func isInjectedThroughAutoregisterAndResolveAsync() async throws {
        let app = Container(name: "app")
        let collected = InfoCollector()
        app.addBehavior(collected)
        try app.registerAsync(Store.self, scope: .singleton) { _ in await Store.open("main") }
        try app.autoregister(Sync.self, initializer: Sync.init)
        let sync = try app.resolve(Sync.self)
        #expect(try await sync.stores().name == "main")
        let direct = try await app.resolveAsync(AsyncProvider<Store>.self)
        #expect(try await direct() === sync.stores())
        let dependencies = try #require(collected.infos.last?.dependencies)
        #expect(dependencies == [Dependency(Store.self, kind: .asyncPerCall)])
    }

    @Test func resolvesFromTheContainerItWasMadeIn() async throws {
        let app = Container(name: "app")
        let child = app.child(name: "child")
        try app.registerAsync(Store.self) { _ in await Store.open("app") }
        try child.registerAsync(Store.self) { _ in await Store.open("child") }
        #expect(try await child.resolve(AsyncProvider<Store>.self)().name == "child")
        #expect(try await app.resolve(AsyncProvider<Store>.self)().name == "app")
    }

    @Test func failsWhenInjectedIfTheTargetIsNotRegistered() throws {
        let app = Container(name: "app")
        try app.autoregister(Sync.self, initializer: Sync.init)
        let error = try #require(throws: ResolutionError.self) { try app.resolve(Sync.self) }
        #expect(error.code == .notRegistered)
        #expect(error.path.map(\.description) == ["Sync", "Store"])
        #expect(try app.resolveIfRegistered(AsyncProvider<Store>.self) == nil)
    }

    @Test func sixteenConcurrentTasksShareOneSingletonBuiltOnce() async throws {
        let app = Container(name: "app")
        let built = Counter()
        try app.registerAsync(Store.self, scope: .singleton) { _ in
            built.increment()
            try await Task.sleep(for: .milliseconds(20))
            return Store(name: "main")
        }
        let stores = try app.resolve(AsyncProvider<Store>.self)
        let ids = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<16 { group.addTask { ObjectIdentifier(try await stores()) } }
            return try await group.reduce(into: [ObjectIdentifier]()) { $0.append($1) }
        }
        #expect(ids.count == 16)
        #expect(Set(ids).count == 1)
        #expect(built.value == 1)
    }

    @Test func aSynchronousProviderOfAnAsyncRegistrationFailsWhenInjectedNamingAsyncProvider() async throws {
        final class Owner: Sendable {
            init(stores: Provider<Store>) {}
        }
        let app = Container(name: "app")
        try app.registerAsync(Store.self) { _ in await Store.open("main") }
        try app.autoregister(Owner.self, initializer: Owner.init)
        let error = try #require(throws: ResolutionError.self) { try app.resolve(Owner.self) }
        #expect(error.code == .asyncResolutionRequired)
        #expect(error.path.map(\.description) == ["Owner", "Provider<Store>", "Store"])
        #expect(error.description.contains("AsyncProvider<Store>"))
        #expect(error.description.contains("try await"))
        // Through an alias of the async registration as well.
        let aliased = Container(name: "aliased")
        try aliased.registerAsync(Store.self) { _ in await Store.open("main") }.implements((any Storing).self)
        let viaAlias = try #require(throws: ResolutionError.self) { try aliased.resolve(Provider<any Storing>.self) }
        #expect(viaAlias.code == .asyncResolutionRequired)
        let viaAsync = try aliased.resolve(AsyncProvider<any Storing>.self)
        #expect(try await viaAsync() is AsyncProviderTests.Store)
    }

    /// A cycle of services built by async factories is broken with an `AsyncProvider`: a `Lazy` or a `Provider`
    /// resolves synchronously, which they refuse. The error says so, and following it works.
    @Test func anAsyncCycleIsToldToTakeAnAsyncProvider() async throws {
        final class Engine: Sendable { init(pump: Pump) {} }
        final class Pump: Sendable {
            let engine: AsyncProvider<Engine>?
            init(engine: AsyncProvider<Engine>?) { self.engine = engine }
        }
        let app = Container(name: "app")
        try app.registerAsync(Engine.self, scope: .singleton) { r in Engine(pump: try await r.resolveAsync(Pump.self)) }
        try app.registerAsync(Pump.self) { r in
            _ = try await r.resolveAsync(Engine.self)
            return Pump(engine: nil)
        }
        let error = await #expect(throws: ResolutionError.self) { try await app.resolveAsync(Engine.self) }
        #expect(error?.code == .circularDependency)
        #expect(error?.message.contains("Break the cycle: let Pump take AsyncProvider<Engine> (resolved on each call, "
            + "with try await) instead of Engine") == true, "\(String(describing: error))")
        try app.registerAsync(Pump.self) { r in Pump(engine: try await r.resolveAsync(AsyncProvider<Engine>.self)) }
        let pump = try await app.resolveAsync(Pump.self)
        #expect(try await pump.engine?() === app.resolveAsync(Engine.self))
        // A synchronous cycle keeps the advice of Lazy and Provider.
        let sync = Container(name: "sync")
        try sync.register(Engine.self, scope: .singleton) { r in Engine(pump: try r.resolve(Pump.self)) }
        try sync.register(Pump.self) { r in _ = try r.resolve(Engine.self); return Pump(engine: nil) }
        let syncError = try #require(throws: ResolutionError.self) { try sync.resolve(Engine.self) }
        #expect(syncError.message.contains("let Pump take Lazy<Engine> (resolved on first read) or Provider<Engine>"))
    }

    @Test func aCycleThroughAnAsyncProviderIsNoConstructionCycle() async throws {
        final class Engine: Sendable {
            let pumps: AsyncProvider<Pump>
            init(pumps: AsyncProvider<Pump>) { self.pumps = pumps }
        }
        final class Pump: Sendable {
            let engine: Engine
            init(engine: Engine) { self.engine = engine }
        }
        let app = Container(name: "app")
        try app.registerAsync(Engine.self, scope: .singleton) { r in
            Engine(pumps: try await r.resolveAsync(AsyncProvider<Pump>.self))
        }
        try app.registerAsync(Pump.self) { r in Pump(engine: try await r.resolveAsync(Engine.self)) }
        let engine = try await app.resolveAsync(Engine.self)
        #expect(try await engine.pumps().engine === engine)
    }

    @Test func callingItWhileItsOwnerIsBuiltIsACycleWithTheWholePath() async throws {
        final class Engine: Sendable {
            init(pump: Pump) {}
        }
        final class Pump: Sendable {
            init(engine: Engine) {}
        }
        let app = Container(name: "app")
        try app.registerAsync(Engine.self, scope: .singleton) { r in
            let pumps = try await r.resolveAsync(AsyncProvider<Pump>.self)
            return Engine(pump: try await pumps())
        }
        try app.registerAsync(Pump.self) { r in Pump(engine: try await r.resolveAsync(Engine.self)) }
        let error = try await #require(throws: ResolutionError.self) { try await app.resolveAsync(Engine.self) }
        #expect(error.code == .circularDependency)
        #expect(error.path.map(\.description) == ["Engine", "AsyncProvider<Pump>", "Pump", "Engine"])
        #expect(error.path.map(\.isDeferred) == [false, true, false, false])
    }

    @Test func aCallErrorCarriesThePathFromTheOwner() async throws {
        struct Boom: Error {}
        let app = Container(name: "app")
        try app.registerAsync(Store.self) { _ in throw Boom() }
        try app.autoregister(Sync.self, initializer: Sync.init)
        let sync = try app.resolve(Sync.self)
        let error = try await #require(throws: ResolutionError.self) { try await sync.stores() }
        #expect(error.code == .factoryFailed)
        #expect(error.underlying is Boom)
        #expect(error.path.map(\.description) == ["Sync", "AsyncProvider<Store>", "Store"])
        #expect(error.path[1].isDeferred)
        #expect(error.path[1].scope == "async per-call")
    }

    @Test func aCallOnAClosedContainerThrowsContainerClosed() async throws {
        let app = Container(name: "app")
        let request = app.child(name: "request")
        try app.registerAsync(Store.self) { _ in await Store.open("main") }
        let stores = try request.resolve(AsyncProvider<Store>.self)
        #expect(try await stores().name == "main")
        request.close()
        let error = try await #require(throws: ResolutionError.self) { try await stores() }
        #expect(error.code == .containerClosed)
        #expect(error.path.first?.isDeferred == true)
        #expect(throws: ResolutionError.self) { try request.resolve(AsyncProvider<Store>.self) }
    }

    @Test func aCallAfterItsContainerWasReleasedThrowsContainerClosed() async throws {
        let app = Container(name: "app")
        try app.registerAsync(Store.self) { _ in await Store.open("main") }
        let stores = try { try app.child(name: "request").resolve(AsyncProvider<Store>.self) }()
        let error = try await #require(throws: ResolutionError.self) { try await stores() }
        #expect(error.code == .containerClosed)
        #expect(error.description.contains("request"))
    }

    @Test func aProviderBuiltByHandCallsItsClosure() async throws {
        let calls = Counter()
        let sync = Sync(stores: AsyncProvider {
            calls.increment()
            return await Store.open("fake")
        })
        #expect(try await sync.stores().name == "fake")
        #expect(try await sync.stores().name == "fake")
        #expect(calls.value == 2)
    }
}
