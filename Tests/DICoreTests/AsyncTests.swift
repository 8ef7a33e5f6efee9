import DICore
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
}
