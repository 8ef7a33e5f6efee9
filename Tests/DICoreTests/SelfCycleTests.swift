import DICore
import Testing

/// A factory that resolves its own key and is given itself: most often a decorator meant to wrap the registration
/// an ancestor makes of that key. The error says which registration it found and how to reach the ancestor's.
@Suite(.timeLimit(.minutes(1))) struct SelfCycleTests {
    protocol Logger: Sendable {}
    struct ConsoleLogger: Logger {}
    struct Stamped: Logger { let inner: any Logger }
    protocol Clock: Sendable {}
    final class SystemClock: Clock { init(_ other: (any Clock)?) {} }

    static let decoratorAdvice = "To wrap the any Logger that app registers (a decorator), resolve the wrapped "
        + "service by a key of its own: register it in app as its concrete type, with .implements((any Logger).self) "
        + "so that the rest of the graph still finds it, and resolve that type here."

    private func app() throws -> Container {
        let app = Container(name: "app")
        try app.register((any Logger).self, scope: .singleton) { _ in ConsoleLogger() }
        return app
    }

    @Test(arguments: [false, true])
    func aDecoratorResolvingThroughItsResolverIsToldToResolveFromTheAncestor(singleton: Bool) throws {
        let app = try app()
        let checkout = app.child(name: "checkout")
        try checkout.register((any Logger).self, scope: singleton ? .singleton : .transient) { r in
            Stamped(inner: try r.resolve((any Logger).self))
        }
        let error = try #require(throws: ResolutionError.self) { try checkout.resolve((any Logger).self) }
        #expect(error.code == .circularDependency)
        #expect(error.path.map(\.description) == ["any Logger", "any Logger"])
        #expect(error.description.contains("resolves any Logger, which from checkout is this same registration"))
        #expect(error.description.contains(Self.decoratorAdvice))
        #expect(!error.description.contains("Lazy<"))
    }

    @Test func aDecoratorAskedFromAGrandchildNamesTheContainerThatBuildsIt() throws {
        let app = try app()
        let checkout = app.child(name: "checkout")
        try checkout.register((any Logger).self) { r in Stamped(inner: try r.resolve((any Logger).self)) }
        let screen = checkout.child(name: "screen")
        let error = try #require(throws: ResolutionError.self) { try screen.resolve((any Logger).self) }
        #expect(error.description.contains("which from screen is this same registration"))
        #expect(error.description.contains(Self.decoratorAdvice))
    }

    @Test(arguments: [false, true])
    func anAsyncDecoratorIsToldTheSame(singleton: Bool) async throws {
        let app = try app()
        let checkout = app.child(name: "checkout")
        try checkout.registerAsync((any Logger).self, scope: singleton ? .singleton : .transient) { r in
            Stamped(inner: try await r.resolveAsync((any Logger).self))
        }
        let error = await #expect(throws: ResolutionError.self) { try await checkout.resolveAsync((any Logger).self) }
        #expect(error?.code == .circularDependency)
        #expect(error?.description.contains(Self.decoratorAdvice) == true)
    }

    @Test func aDecoratorResolvingThroughTheAmbientContainerIsToldTheSame() throws {
        let app = try app()
        let checkout = app.child(name: "checkout")
        try checkout.register((any Logger).self) { _ in
            Stamped(inner: try Container.current.resolve((any Logger).self))
        }
        let error = try #require(throws: ResolutionError.self) {
            try withContainer(checkout) { try checkout.resolve((any Logger).self) }
        }
        #expect(error.description.contains(Self.decoratorAdvice))
    }

    /// The advice works, also in a test container made from the tree: the wrapped service is the test's copy, built
    /// with the test's overrides. (A factory that captured `app` and resolved from it would reach the real app's.)
    @Test func theAdviceWorksAlsoInATestContainer() throws {
        final class Timestamped: Logger { let clock: any Clock; init(clock: any Clock) { self.clock = clock } }
        struct FixedClock: Clock {}
        let app = Container(name: "app")
        try app.register((any Clock).self, scope: .singleton) { _ in SystemClock(nil) }
        try app.autoregister(Timestamped.self, scope: .singleton, initializer: Timestamped.init)
            .implements((any Logger).self)
        let checkout = app.child(name: "checkout")
        try checkout.register((any Logger).self) { r in Stamped(inner: try r.resolve(Timestamped.self)) }

        let stamped = try #require(try checkout.resolve((any Logger).self) as? Stamped)
        let appLogger = try #require(try app.resolve((any Logger).self) as? Timestamped)
        #expect(stamped.inner as? Timestamped === appLogger)
        let test = Container.makeTestContainer(from: checkout, name: "test")
        defer { test.close() }
        try test.register((any Clock).self) { _ in FixedClock() }
        let inTest = try #require(try test.resolve((any Logger).self) as? Stamped)
        let wrapped = try #require(inTest.inner as? Timestamped)
        #expect(wrapped.clock is FixedClock)
        #expect(wrapped !== appLogger)
    }

    @Test func withoutAnAncestorsRegistrationTheFactoryIsToldToBuildItsService() throws {
        let app = Container(name: "app")
        try app.register(String.self) { r in try r.resolve(String.self) + "!" }
        let error = try #require(throws: ResolutionError.self) { try app.resolve(String.self) }
        #expect(error.description.contains("resolves String, which from app is this same registration"))
        #expect(error.description.contains("A factory builds its service rather than resolving it"))
        #expect(!error.description.contains("decorator"))
        // Nothing registered is lost.
        try app.register(Int.self) { _ in 1 }
        #expect(try app.resolve(Int.self) == 1)
    }

    @Test func aFactoryResolvingItsOwnAliasFindsItself() throws {
        let app = Container(name: "app")
        try app.register(SystemClock.self) { r in SystemClock(try r.resolve((any Clock).self)) }
            .implements((any Clock).self)
        let error = try #require(throws: ResolutionError.self) { try app.resolve(SystemClock.self) }
        #expect(error.path.map(\.description) == ["SystemClock", "any Clock"])
        #expect(error.description.contains("resolves any Clock, which from app is this same registration"))
    }

    @Test func aLongerCycleKeepsItsAdvice() throws {
        let app = Container(name: "app")
        try app.register(String.self) { r in "\(try r.resolve(Double.self))" }
        try app.register(Double.self) { r in Double(try r.resolve(String.self)) ?? 0 }
        let error = try #require(throws: ResolutionError.self) { try app.resolve(String.self) }
        #expect(error.description.contains("Break the cycle: let Double take Lazy<String>"))
        #expect(!error.description.contains("this same registration"))
    }
}
