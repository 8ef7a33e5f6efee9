import DICore
import Testing

/// The `Resolver` shorthands: a `Container` behind `any Resolver` is called directly, any other resolver
/// through its own requirements.
@Suite struct ResolverTests {
    /// A resolver that is not a container: it answers every request for an `Int` with `42`, and records it.
    final class Answering: Resolver {
        let asked = Lock<[String?]>([])

        func resolve<Service>(_ type: Service.Type, name: String?) throws -> Service {
            asked.withLock { $0.append(name) }
            return try #require(42 as? Service)
        }

        func resolve<Service, each Argument>(
            _ type: Service.Type, name: String?, arguments: repeat each Argument
        ) throws -> Service {
            try resolve(type, name: name)
        }

        func resolveIfRegistered<Service>(_ type: Service.Type, name: String?) throws -> Service? {
            try resolve(type, name: name)
        }

        func resolveAll<Service>(_ type: Service.Type) throws -> [Service] { [try resolve(type, name: nil)] }

        func isRegistered<Service>(_ type: Service.Type, name: String?) -> Bool { true }

        func resolveAsync<Service>(_ type: Service.Type, name: String?) async throws -> Service {
            try resolve(type, name: name)
        }
    }

    @Test func theShorthandReachesAResolverThatIsNotAContainer() throws {
        let answering = Answering()
        let resolver: any Resolver = answering
        let value: Int = try resolver.resolve()
        #expect(value == 42)
        #expect(try resolver.resolve(Int.self) == 42)
        #expect(answering.asked.withLock { $0 } == [nil, nil])
    }

    @Test func theShorthandOnAContainerResolvesFromThatContainer() throws {
        let app = Container(name: "app")
        try app.register(Int.self) { _ in 1 }
        let child = app.child(name: "child")
        try child.register(Int.self) { _ in 2 }
        let resolvers: [any Resolver] = [app, child]
        #expect(try resolvers.map { try $0.resolve(Int.self) } == [1, 2])
    }

    @Test(.timeLimit(.minutes(1)))
    func aNameThatIsNotOptionalTakesTheShorthandAndAnOptionalOneTheRequirement() throws {
        let app = Container(name: "app")
        try app.register(Int.self, name: "primary") { _ in 1 }
        try app.register(String.self) { r in "\(try r.resolve(Int.self, name: "primary"))" }
        let optionalName: String? = "primary"
        let resolver: any Resolver = app
        #expect(try resolver.resolve(Int.self, name: "primary") == 1)
        #expect(try resolver.resolve(Int.self, name: optionalName) == 1)
        #expect(try app.resolve(Int.self, name: "primary") == 1)
        #expect(try app.resolve(String.self) == "1")

        let answering = Answering()
        let other: any Resolver = answering
        #expect(try other.resolve(Int.self, name: "primary") == 42)
        #expect(answering.asked.withLock { $0 } == ["primary"])
    }
}

