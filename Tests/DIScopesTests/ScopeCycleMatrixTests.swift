import DICore
import DIScopes
import DITestSupport
import Foundation
import Testing

/// Cycles through every lifetime that builds an instance once and shares it, reached every way a factory can
/// reach the container: the `Resolver` it is given, the container it captured, a `Lazy` it reads (on the
/// synchronous path) and a `Provider` it calls while building (an `AsyncProvider` on the `async` path). With 1,
/// 2, 3 and 16 threads or tasks entering the cycle at once, at different nodes, every resolve ends in
/// `circularDependency` — a thread building one node that waits for another building the next is a cycle too,
/// never a hang — and the containers resolve everything else afterwards. A round that does not finish within
/// its deadline fails as a hang.
@Suite struct ScopeCycleMatrixTests {
    final class Node: Sendable {
        let next: Node
        init(_ next: Node) { self.next = next }
    }

    final class Healthy: Sendable {}

    enum Lifetime: String, CaseIterable, Sendable {
        case cached, scoped, matching, weak, custom, graph

        func makeScope() -> Scope {
            switch self {
            case .cached: .cached
            case .scoped: .scoped
            case .matching: .matching("request")
            case .weak: .weak
            case .custom: .custom("session", storage: DictionaryStorage())
            case .graph: .graph
            }
        }
    }

    enum Route: String, CaseIterable, Sendable {
        /// The factory resolves the next node through its `Resolver`.
        case resolver
        /// Through the request container it captured.
        case capturedContainer
        /// It resolves a `Lazy` of the next node and reads it while building.
        case lazy
        /// It resolves a `Provider` (`async`: an `AsyncProvider`) of the next node and calls it while building.
        case provider
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let lifetime: Lifetime
        let route: Route
        let workers: Int

        var testDescription: String { "\(lifetime), \(route), \(workers) workers" }

        static let all: [Case] = Lifetime.allCases.flatMap { lifetime in
            Route.allCases.flatMap { route in
                [1, 2, 3, 16].map { Case(lifetime: lifetime, route: route, workers: $0) }
            }
        }

        /// The `async` path has no lazy route: reading a `Lazy` is synchronous.
        static let async = all.filter { $0.route != .lazy }

        var rounds: Int { workers == 1 ? 1 : 4 }
    }

    /// Generous: a loaded machine running ThreadSanitizer must not read as a hang.
    static let deadline = Duration.seconds(30)
    static let length = 3

    /// An app with the cycle `n0 → n1 → n2 → n0` and a healthy singleton, and the request container, tagged
    /// `request`, that the workers resolve from.
    private struct Tree {
        let app = Container(name: "app")
        let request: Container

        init(_ cycle: Case, async: Bool) throws {
            request = app.child(name: "request", tags: ["request"])
            try app.register(Healthy.self, scope: .singleton) { _ in Healthy() }
            let scope = cycle.lifetime.makeScope()
            for index in 0..<ScopeCycleMatrixTests.length {
                let next = "n\((index + 1) % ScopeCycleMatrixTests.length)"
                let (route, workers, request) = (cycle.route, cycle.workers, request)
                if async {
                    try app.registerAsync(Node.self, name: "n\(index)", scope: scope) { [unowned request] r in
                        await Task.yield()
                        switch route {
                        case .resolver: return Node(try await r.resolveAsync(Node.self, name: next))
                        case .capturedContainer: return Node(try await request.resolveAsync(Node.self, name: next))
                        case .lazy:
                            // Not asked: a `Lazy` is read synchronously, and cannot build an `async` node.
                            preconditionFailure("no lazy route on the async path")
                        case .provider:
                            return Node(try await r.resolve(AsyncProvider<Node>.self, name: next)())
                        }
                    }
                } else {
                    try app.register(Node.self, name: "n\(index)", scope: scope) { [unowned request] r in
                        // Keep several threads inside the cycle at once.
                        if workers > 1 { usleep(200) }
                        switch route {
                        case .resolver: return Node(try r.resolve(Node.self, name: next))
                        case .capturedContainer: return Node(try request.resolve(Node.self, name: next))
                        case .lazy: return Node(try r.resolve(Lazy<Node>.self, name: next).value)
                        case .provider: return Node(try r.resolve(Provider<Node>.self, name: next)())
                        }
                    }
                }
            }
        }

        /// The containers still resolve what is not part of the cycle, and the cycle still ends in an error.
        func checkStillWorks() throws {
            #expect(try request.resolve(Healthy.self) === app.resolve(Healthy.self))
            #expect(throws: ResolutionError.self) { try request.resolve(Node.self, name: "n0") }
        }
    }

    @Test(.timeLimit(.minutes(1)), arguments: Case.all)
    func syncCycleEndsInCircularDependency(_ cycle: Case) async throws {
        for round in 0..<cycle.rounds {
            let tree = try Tree(cycle, async: false)
            let outcomes = await raceOnThreads(cycle.workers, within: Self.deadline) { worker in
                Outcome { try tree.request.resolve(Node.self, name: "n\(worker % Self.length)") }
            }
            let finished = try #require(outcomes, "round \(round): threads still blocked after \(Self.deadline)")
            for (worker, outcome) in finished.enumerated() {
                #expect(outcome == .failed(.circularDependency), "round \(round), thread \(worker): \(outcome)")
            }
            try tree.checkStillWorks()
        }
    }

    @Test(.timeLimit(.minutes(1)), arguments: Case.async)
    func asyncCycleEndsInCircularDependency(_ cycle: Case) async throws {
        for round in 0..<cycle.rounds {
            let tree = try Tree(cycle, async: true)
            let outcomes = await finishing(within: Self.deadline) {
                await withTaskGroup(of: Outcome.self) { group in
                    for worker in 0..<cycle.workers {
                        group.addTask {
                            await Outcome {
                                try await tree.request.resolveAsync(Node.self, name: "n\(worker % Self.length)")
                            }
                        }
                    }
                    return await group.reduce(into: [Outcome]()) { $0.append($1) }
                }
            }
            let finished = try #require(outcomes, "round \(round): tasks still suspended after \(Self.deadline)")
            for outcome in finished {
                #expect(outcome == .failed(.circularDependency), "round \(round): \(outcome)")
            }
            #expect(try tree.request.resolve(Healthy.self) === tree.app.resolve(Healthy.self))
        }
    }
}
