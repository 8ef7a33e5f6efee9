import DICore
import DITestSupport
import Foundation
import Testing

/// What must be freed is freed: dropped children, closed containers' instances, replaced registrations and
/// their instances, the resolvers handed to factories, and containers named by an error. Checked with weak
/// references and with a count of live instances, never with timing.
@Suite(.timeLimit(.minutes(1))) struct LeakTests {
    /// Something a factory closure captures, to see whether the registration is freed.
    final class Token: Sendable {}

    /// Holds a weak reference to a container from inside a factory.
    final class WeakBox: Sendable {
        private let reference = Lock<WeakContainer?>(nil)
        func set(_ value: Container) { reference.withLock { $0 = WeakContainer(value) } }
        var value: Container? { reference.withLock { $0?.container } }
    }

    final class WeakContainer: Sendable {
        weak let container: Container?
        init(_ container: Container) { self.container = container }
    }

    final class WeakReference {
        weak let object: AnyObject?
        init(_ object: AnyObject) { self.object = object }
    }

    @Test func droppedChildIsFreedWithItsInstances() throws {
        let app = Container(name: "app")
        let population = Population()
        try app.register(Tracked.self, scope: .singleton) { _ in Tracked(population) }
        let (child, instance) = try Self.useChild(of: app, population: population)
        #expect(child.object == nil, "the dropped child is still alive")
        #expect(instance.object == nil, "the dropped child's singleton is still alive")
        #expect(population.alive == 1, "only the app's singleton is alive")
    }

    private static func useChild(of app: Container, population: Population) throws
        -> (child: WeakReference, instance: WeakReference)
    {
        let child = app.child(name: "feature")
        try child.register(Tracked.self, name: "own", scope: .singleton) { _ in Tracked(population) }
        _ = try child.resolve(Tracked.self)
        let own = try child.resolve(Tracked.self, name: "own")
        return (WeakReference(child), WeakReference(own))
    }

    /// In a process of its own, as every test below that counts instances freed with a registration table:
    /// tests running in parallel hold read sections for a while (inside slow factories, or waiting for each
    /// other's builds), which rightly keeps replaced tables, and what only they hold, until they move on.
    @Test func closedContainerReleasesItsInstancesAtOnce() async {
        await #expect(processExitsWith: .success) {
            let app = Container(name: "app")
            let population = Population()
            try app.register(Tracked.self, scope: .singleton) { _ in Tracked(population) }
            try app.registerAsync(Tracked.self, name: "async", scope: .singleton) { _ in Tracked(population) }
            _ = try app.resolve(Tracked.self)
            guard population.alive == 1 else { exit(2) }
            app.close()
            exit(population.alive == 0 ? 0 : 1)
        }
    }

    @Test func droppedRootIsFreedWithEverythingItBuilt() throws {
        let population = Population()
        let app = try Self.makeAndUseRoot(population)
        #expect(app.object == nil)
        #expect(population.alive == 0)
    }

    private static func makeAndUseRoot(_ population: Population) throws -> WeakReference {
        let app = Container(name: "app")
        let child = app.child(name: "child")
        try app.register(Tracked.self, scope: .singleton) { _ in Tracked(population) }
        try app.register(Tracked.self, name: "transient") { _ in Tracked(population) }
        try child.register(Tracked.self, name: "child", scope: .singleton) { r in
            _ = try r.resolve(Tracked.self)
            return Tracked(population)
        }
        _ = try child.resolve(Tracked.self, name: "child")
        _ = try child.resolve(Tracked.self, name: "transient")
        return WeakReference(app)
    }

    @Test func replacedSingletonIsFreed() async {
        await #expect(processExitsWith: .success) {
            let app = Container(name: "app")
            let population = Population()
            try app.register(Tracked.self, scope: .singleton) { _ in Tracked(population) }
            _ = try app.resolve(Tracked.self)
            try app.register(Tracked.self, scope: .singleton) { _ in Tracked(population) }
            guard population.alive == 0 else { exit(1) }
            _ = try app.resolve(Tracked.self)
            exit(population.alive == 1 ? 0 : 2)
        }
    }

    @Test func replacedRegistrationIsFreed() async {
        await #expect(processExitsWith: .success) {
            let app = Container(name: "app")
            let token = try LeakTests.registerCapturing(in: app)
            _ = try app.resolve(Int.self)
            try app.register(Int.self) { _ in 2 }
            guard token.object == nil else { exit(1) }
            exit(try app.resolve(Int.self) == 2 ? 0 : 2)
        }
    }

    static func registerCapturing(in app: Container) throws -> WeakReference {
        let token = Token()
        try app.register(Int.self) { _ in
            _ = token
            return 1
        }
        return WeakReference(token)
    }

    /// Re-registering one key many times in a live container keeps at most one instance alive: each
    /// replaced singleton is freed, not only disposed.
    @Test func reRegisteringManyTimesKeepsOneInstanceAlive() async {
        await #expect(processExitsWith: .success) {
            let app = Container(name: "app")
            try app.register(Int.self, name: "bystander") { _ in 7 }
            let population = Population()
            for _ in 0..<1_000 {
                try app.register(Tracked.self, scope: .singleton) { _ in Tracked(population) }
                _ = try app.resolve(Tracked.self)
            }
            guard population.built == 1_000, try app.resolve(Int.self, name: "bystander") == 7 else { exit(2) }
            exit(population.alive == 1 ? 0 : 1)
        }
    }

    @Test func resolverHandedToAFactoryIsNotKeptAlive() throws {
        let box = WeakBox()
        try Self.resolveKeepingTheResolver(in: box)
        #expect(box.value == nil, "the resolver given to a factory outlives its container")
    }

    private static func resolveKeepingTheResolver(in box: WeakBox) throws {
        let app = Container(name: "app")
        try app.register(Int.self) { r in
            // The resolver a factory receives is a container today; if that changes, this test must follow.
            box.set(try #require(r as? Container))
            return 1
        }
        let child = app.child(name: "child")
        _ = try child.resolve(Int.self)
        #expect(box.value === child)
    }

    /// An error keeps its message, not the containers it names.
    @Test func errorDoesNotKeepItsContainerAlive() throws {
        let (error, container) = try Self.failInDroppedContainer()
        #expect(container.object == nil, "the error keeps its container alive")
        #expect(error.code == .notRegistered)
        #expect(error.description.contains("Cannot resolve Int \"missing\""))
    }

    private static func failInDroppedContainer() throws -> (ResolutionError, WeakReference) {
        let app = Container(name: "app")
        try app.register(Int.self, name: "present") { _ in 1 }
        let error = try #require(throws: ResolutionError.self) { try app.resolve(Int.self, name: "missing") }
        return (error, WeakReference(app))
    }
}
