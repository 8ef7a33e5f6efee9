import DICore
import DITestSupport
import DIPropertyWrappers
import Foundation
import Testing

/// Cycles through property wrappers end in `circularDependency`, never a hang: the active resolution
/// travels with the thread or task, not only with the `Resolver` argument, so a factory that builds an
/// owner whose wrapper resolves the service being built is caught. With 1, 2, 3 and 16 threads, and 2- and
/// 3-cycles; `@LazyInject` is read through its throwing `resolve()`, `@Inject` through the same resolution
/// its initialiser runs (which would trap instead of throwing).
@Suite struct WrapperCycleTests {
    final class Node: Sendable {
        init() {}
    }

    /// An owner whose lazily injected property is the next node of the cycle.
    final class LazyOwner {
        @LazyInject var next: Node

        init(name: String) { _next = LazyInject(name: name) }
    }

    enum Wrapper: String, Sendable, CaseIterable {
        case lazyInject, inject
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let wrapper: Wrapper
        let length: Int
        let workers: Int
        var testDescription: String { "\(wrapper), \(length)-cycle, \(workers) workers" }

        static let all = Wrapper.allCases.flatMap { wrapper in
            [2, 3].flatMap { length in [1, 2, 3, 16].map { Case(wrapper: wrapper, length: length, workers: $0) } }
        }
    }

    // Generous: a loaded machine running ThreadSanitizer (20× slower) must not read as a hang.
    static let deadline = Duration.seconds(30)

    /// The error's code, and for a wrapped error the chain down to the resolution error inside, so that a
    /// cycle reported as `factoryFailed` around an `InjectionError` reads as such.
    static func describe(_ body: () throws -> Node) -> String {
        do {
            _ = try body()
            return "an instance"
        } catch {
            var chain: [String] = []
            var current: (any Error)? = error
            while let next = current {
                switch next {
                case let resolution as ResolutionError:
                    chain.append("\(resolution.code)")
                    current = resolution.underlying
                case let injection as InjectionError:
                    chain.append("InjectionError.\(injection.code)")
                    current = injection.underlying
                default:
                    chain.append("\(next)")
                    current = nil
                }
            }
            return chain.joined(separator: " wrapping ")
        }
    }

    static func register(_ cycle: Case, in app: Container) throws {
        for index in 0..<cycle.length {
            let next = "n\((index + 1) % cycle.length)"
            let (wrapper, workers) = (cycle.wrapper, cycle.workers)
            try app.register(Node.self, name: "n\(index)", scope: .singleton) { _ in
                if workers > 1 { usleep(200) }
                switch wrapper {
                case .lazyInject:
                    _ = try LazyOwner(name: next).$next.resolve()
                case .inject:
                    _ = try Inject<Node>.resolve(name: next, from: Container.ambient, fileID: #fileID, line: #line)
                }
                return Node()
            }
        }
    }

    @Test(.timeLimit(.minutes(1)), arguments: Case.all)
    func cycleThroughAWrapperEndsInCircularDependency(_ cycle: Case) async throws {
        for round in 0..<(cycle.workers == 1 ? 1 : 5) {
            let app = Container(name: "app")
            try Self.register(cycle, in: app)
            let outcomes = await raceOnThreads(cycle.workers, within: Self.deadline) { worker in
                Self.describe { try app.resolve(Node.self, name: "n\(worker % cycle.length)") }
            }
            let finished = try #require(outcomes, "round \(round): threads still blocked after \(Self.deadline)")
            for outcome in finished {
                #expect(outcome == "circularDependency", "round \(round): \(outcome)")
            }
        }
    }

    /// The ambient container inside an async factory is the building container, so an async cycle through
    /// it is caught too.
    @Test(.timeLimit(.minutes(1)), arguments: [1, 2, 16])
    func asyncCycleThroughTheAmbientContainerEndsInCircularDependency(_ tasks: Int) async throws {
        let app = Container(name: "app")
        for index in 0..<2 {
            let next = "n\((index + 1) % 2)"
            try app.registerAsync(Node.self, name: "n\(index)", scope: .singleton) { _ in
                await Task.yield()
                _ = try await Container.current.resolveAsync(Node.self, name: next)
                return Node()
            }
        }
        let outcomes = await finishing(within: Self.deadline) {
            await withContainer(app) {
                await withTaskGroup(of: Outcome.self) { group in
                    for worker in 0..<tasks {
                        group.addTask { await Outcome { try await app.resolveAsync(Node.self, name: "n\(worker % 2)") } }
                    }
                    return await group.reduce(into: [Outcome]()) { $0.append($1) }
                }
            }
        }
        let finished = try #require(outcomes, "tasks still suspended after \(Self.deadline)")
        for outcome in finished { #expect(outcome == .failed(.circularDependency), "\(outcome)") }
    }
}
