import DICore
import DITestSupport
import Foundation
import Testing

/// Cycles never hang: for sync and async factories, 2- and 3-cycles, through the `Resolver` argument or
/// a captured container, with 1, 2, 3 and 16 threads or tasks entering the cycle at once, every resolve
/// ends in `circularDependency` (a cycle can never complete, so no thread may get an instance), and the
/// container still resolves everything else afterwards. A round that does not finish within its deadline
/// fails as a hang.
@Suite struct CycleMatrixTests {
    final class Node: Sendable {
        let next: Node
        init(_ next: Node) { self.next = next }
    }

    final class Healthy: Sendable {}

    enum Route: String, Sendable, CaseIterable {
        /// The factory resolves the next node through the `Resolver` it is given.
        case resolver
        /// The factory resolves the next node through the container it captured.
        case capturedContainer
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let route: Route
        let length: Int
        let workers: Int
        let scope: Scope

        var testDescription: String { "\(length)-cycle, \(scope), \(route), \(workers) workers" }

        static let all: [Case] = Route.allCases.flatMap { route in
            [2, 3].flatMap { length in
                [1, 2, 3, 16].flatMap { workers in
                    [Scope.transient, .singleton].map { Case(route: route, length: length, workers: workers, scope: $0) }
                }
            }
        }

        /// One round with a single worker proves the point; races need a few.
        var rounds: Int { workers == 1 ? 1 : 8 }
    }

    // Generous: a loaded machine running ThreadSanitizer (20× slower) must not read as a hang.
    static let deadline = Duration.seconds(30)

    private static func registerSync(_ cycle: Case, in app: Container) throws {
        try app.register(Healthy.self, scope: .singleton) { _ in Healthy() }
        for index in 0..<cycle.length {
            let next = "n\((index + 1) % cycle.length)"
            let route = cycle.route
            let workers = cycle.workers
            try app.register(Node.self, name: "n\(index)", scope: cycle.scope) { [unowned app] r in
                // Keep several threads inside the cycle at once.
                if workers > 1 { usleep(200) }
                switch route {
                case .resolver: return Node(try r.resolve(Node.self, name: next))
                case .capturedContainer: return Node(try app.resolve(Node.self, name: next))
                }
            }
        }
    }

    private static func registerAsync(_ cycle: Case, in app: Container) throws {
        try app.register(Healthy.self, scope: .singleton) { _ in Healthy() }
        for index in 0..<cycle.length {
            let next = "n\((index + 1) % cycle.length)"
            let route = cycle.route
            try app.registerAsync(Node.self, name: "n\(index)", scope: cycle.scope) { [unowned app] r in
                await Task.yield()
                switch route {
                case .resolver: return Node(try await r.resolveAsync(Node.self, name: next))
                case .capturedContainer: return Node(try await app.resolveAsync(Node.self, name: next))
                }
            }
        }
    }

    @Test(.timeLimit(.minutes(1)), arguments: Case.all)
    func syncCycleEndsInCircularDependency(_ cycle: Case) async throws {
        for round in 0..<cycle.rounds {
            let app = Container(name: "app")
            try Self.registerSync(cycle, in: app)
            let outcomes = await raceOnThreads(cycle.workers, within: Self.deadline) { worker in
                Outcome { try app.resolve(Node.self, name: "n\(worker % cycle.length)") }
            }
            let finished = try #require(outcomes, "round \(round): threads still blocked after \(Self.deadline)")
            for (worker, outcome) in finished.enumerated() {
                #expect(outcome == .failed(.circularDependency), "round \(round), thread \(worker): \(outcome)")
            }
            #expect(try app.resolve(Healthy.self) === app.resolve(Healthy.self))
        }
    }

    @Test(.timeLimit(.minutes(1)), arguments: Case.all)
    func asyncCycleEndsInCircularDependency(_ cycle: Case) async throws {
        for round in 0..<cycle.rounds {
            let app = Container(name: "app")
            try Self.registerAsync(cycle, in: app)
            let outcomes = await finishing(within: Self.deadline) {
                await withTaskGroup(of: Outcome.self) { group in
                    for worker in 0..<cycle.workers {
                        group.addTask {
                            await Outcome { try await app.resolveAsync(Node.self, name: "n\(worker % cycle.length)") }
                        }
                    }
                    return await group.reduce(into: [Outcome]()) { $0.append($1) }
                }
            }
            let finished = try #require(outcomes, "round \(round): tasks still suspended after \(Self.deadline)")
            for outcome in finished {
                #expect(outcome == .failed(.circularDependency), "round \(round): \(outcome)")
            }
            #expect(try app.resolve(Healthy.self) === app.resolve(Healthy.self))
        }
    }

    /// The shape of the reported deadlock: one thread enters the cycle at A, fifteen at B.
    @Test(.timeLimit(.minutes(1)))
    func oneThreadAtAAndFifteenAtBAllFinish() async throws {
        let cycle = Case(route: .resolver, length: 2, workers: 16, scope: .singleton)
        for round in 0..<20 {
            let app = Container(name: "app")
            try Self.registerSync(cycle, in: app)
            let outcomes = await raceOnThreads(16, within: Self.deadline) { worker in
                Outcome { try app.resolve(Node.self, name: worker == 0 ? "n0" : "n1") }
            }
            let finished = try #require(outcomes, "round \(round): threads still blocked after \(Self.deadline)")
            for outcome in finished {
                #expect(outcome == .failed(.circularDependency) || outcome.isInstance, "round \(round): \(outcome)")
            }
        }
    }

    /// Sync and async in one cycle: an async factory resolving a sync singleton that resolves it back.
    @Test(.timeLimit(.minutes(1)))
    func mixedSyncAndAsyncCycleEndsInCircularDependency() async throws {
        let app = Container(name: "app")
        try app.registerAsync(Node.self, name: "async", scope: .singleton) { r in
            Node(try await r.resolveAsync(Node.self, name: "sync"))
        }
        try app.register(Node.self, name: "sync", scope: .singleton) { r in
            Node(try r.resolve(Node.self, name: "async"))
        }
        let outcome = await finishing(within: Self.deadline) {
            await Outcome { try await app.resolveAsync(Node.self, name: "async") }
        }
        let finished = try #require(outcome, "still suspended after \(Self.deadline)")
        // The sync side cannot wait for an async build: either the cycle or "use resolveAsync" is right.
        #expect(finished == .failed(.circularDependency) || finished == .failed(.asyncResolutionRequired))
    }

    @Test func cycleErrorNamesTheLoop() throws {
        let app = Container(name: "app")
        try Self.registerSync(Case(route: .resolver, length: 3, workers: 1, scope: .singleton), in: app)
        let error = try #require(throws: ResolutionError.self) { try app.resolve(Node.self, name: "n0") }
        #expect(error.description.contains("Node \"n0\" → Node \"n1\" → Node \"n2\" → Node \"n0\""))
        #expect(error.message.contains("Break the cycle"))
    }
}

extension Outcome {
    var isInstance: Bool {
        if case .instance = self { return true }
        return false
    }
}
