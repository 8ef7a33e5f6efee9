import DICore
import DIScopes
import DITestSupport
import Foundation
import Testing

/// The instances every keeping lifetime holds are freed — not only disposed — when their registration is
/// replaced, when they are reset, and when their container is closed; counted with a `deinit`, never timed.
@Suite(.timeLimit(.minutes(1))) struct ScopeLeakTests {
    enum Keeping: String, CaseIterable, Sendable {
        case singleton, cached, scoped, matching

        var scope: Scope {
            switch self {
            case .singleton: .singleton
            case .cached: .cached
            case .scoped: .scoped
            case .matching: .matching("session")
            }
        }
    }

    /// `app` (tagged) → `feature`; the service is registered in `app` and resolved from both.
    static func tree(_ keeping: Keeping, _ population: Population) throws -> (Container, Container) {
        let app = Container(name: "app", tags: ["session"])
        let feature = app.child(name: "feature")
        try app.register(Tracked.self, scope: keeping.scope) { _ in Tracked(population) }
        _ = try app.resolve(Tracked.self)
        _ = try feature.resolve(Tracked.self)
        return (app, feature)
    }

    /// `.singleton` instances are freed with the registration table that held them, as soon as no resolve
    /// on another thread can still be reading it: see the tests in processes of their own below.
    @Test(arguments: [Keeping.cached, .scoped, .matching])
    func replacedInstancesAreFreed(_ keeping: Keeping) throws {
        let population = Population()
        let (app, feature) = try Self.tree(keeping, population)
        for _ in 0..<100 {
            try app.register(Tracked.self, scope: keeping.scope) { _ in Tracked(population) }
            _ = try feature.resolve(Tracked.self)
        }
        // Only the last registration's instance, the one `feature` just resolved, is alive.
        #expect(population.alive == 1, "\(population.alive) instances of replaced registrations are alive")
    }

    @Test(arguments: [Keeping.cached, .scoped, .matching])
    func resetInstancesAreFreed(_ keeping: Keeping) throws {
        let population = Population()
        let (app, feature) = try Self.tree(keeping, population)
        app.reset(keeping.scope, includingDescendants: true)
        #expect(population.alive == 0, "\(population.alive) reset instances are alive")
        _ = try feature.resolve(Tracked.self)
        #expect(population.alive == 1)
    }

    @Test(arguments: [Keeping.cached, .scoped, .matching])
    func closedContainersFreeTheirInstances(_ keeping: Keeping) throws {
        let population = Population()
        let (app, _) = try Self.tree(keeping, population)
        app.close()
        #expect(population.alive == 0, "\(population.alive) instances of a closed tree are alive")
    }

    /// In a process of its own: tests running in parallel hold read sections for a while (inside slow
    /// factories, or waiting for each other's builds), which rightly keeps replaced tables, and the
    /// singletons only they hold, until they move on.
    @Test func replacedSingletonsAreFreed() async {
        await #expect(processExitsWith: .success) {
            let population = Population()
            let (app, feature) = try ScopeLeakTests.tree(.singleton, population)
            for _ in 0..<100 {
                try app.register(Tracked.self, scope: .singleton) { _ in Tracked(population) }
                _ = try feature.resolve(Tracked.self)
            }
            exit(population.alive == 1 ? 0 : 1)
        }
    }

    /// In a process of its own, for the reason above.
    @Test func closedContainersFreeTheirSingletons() async {
        await #expect(processExitsWith: .success) {
            let population = Population()
            let (app, _) = try ScopeLeakTests.tree(.singleton, population)
            app.close()
            exit(population.alive == 0 ? 0 : 1)
        }
    }
}
