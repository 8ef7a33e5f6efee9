import DICore
import DITestSupport
import Foundation
import Testing

/// Builds of shared instances meeting each other: cycles through async factories and across many threads,
/// and an alias that asks synchronously while an async build runs. Each would hang or build twice if the
/// waits-for graph lost track of a builder. Run also under `swift test --sanitize=thread`.
@Suite struct BuildCoordinatorTests {
    final class A: Sendable { init(_ b: B?) {} }
    final class B: Sendable { init(_ a: A?) {} }
    protocol Service: Sendable {}
    final class SlowService: Service {}

    @Test(.timeLimit(.minutes(1)))
    func asyncSingletonCycleInOneTaskEndsInACycleError() async throws {
        let app = Container(name: "app")
        try app.registerAsync(A.self, scope: .singleton) { r in A(try await r.resolveAsync(B.self)) }
        try app.registerAsync(B.self, scope: .singleton) { r in B(try await r.resolveAsync(A.self)) }
        let outcome = await finishing(within: .seconds(20)) { () async -> ResolutionError? in
            do {
                _ = try await app.resolveAsync(A.self)
                return nil
            } catch {
                return error as? ResolutionError
            }
        }
        let finished = try #require(outcome, "resolveAsync hung")
        let error = try #require(finished, "resolveAsync succeeded")
        #expect(error.code == .circularDependency)
        #expect(error.path.map(\.description) == ["A", "B", "A"])
    }

    @Test(.timeLimit(.minutes(1)))
    func asyncSingletonCycleStartedFromBothEndsByTwoTasksEndsInCycleErrors() async throws {
        for _ in 0..<20 {
            let app = Container(name: "app")
            try app.registerAsync(A.self, scope: .singleton) { r in
                try await Task.sleep(for: .milliseconds(2))
                return A(try await r.resolveAsync(B.self))
            }
            try app.registerAsync(B.self, scope: .singleton) { r in
                try await Task.sleep(for: .milliseconds(2))
                return B(try await r.resolveAsync(A.self))
            }
            let both = await finishing(within: .seconds(20)) { () async -> [ResolutionError.Code?] in
                async let a = Self.code { _ = try await app.resolveAsync(A.self) }
                async let b = Self.code { _ = try await app.resolveAsync(B.self) }
                return await [a, b]
            }
            let codes = try #require(both, "two tasks on an async cycle hung")
            #expect(codes == [.circularDependency, .circularDependency])
        }
    }

    /// The code of the `ResolutionError` that `operation` throws, `nil` when it succeeds.
    static func code(_ operation: () async throws -> Void) async -> ResolutionError.Code? {
        do {
            try await operation()
            return nil
        } catch {
            return (error as? ResolutionError)?.code ?? .factoryFailed
        }
    }

    @Test(.timeLimit(.minutes(1)), arguments: [2, 3, 16])
    func syncSingletonCycleAcrossThreadsNeverHangs(threads: Int) async throws {
        for round in 0..<10 {
            let app = Container(name: "app")
            try app.register(A.self, scope: .singleton) { r in
                usleep(200)
                return A(try r.resolve(B.self))
            }
            try app.register(B.self, scope: .singleton) { r in
                usleep(200)
                return B(try r.resolve(A.self))
            }
            // One thread starts at A, the others at B, all at once.
            let results = await raceOnThreads(threads) { index -> ResolutionError.Code? in
                do {
                    if index == 0 { _ = try app.resolve(A.self) } else { _ = try app.resolve(B.self) }
                    return nil
                } catch let error as ResolutionError {
                    return error.code
                } catch {
                    return .factoryFailed
                }
            }
            let codes = try #require(results, "round \(round): threads hung")
            #expect(codes.allSatisfy { $0 == .circularDependency }, "round \(round): \(codes)")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func synchronousAliasRequestDuringAnAsyncBuildLeavesTheBuildAlone() async throws {
        let app = Container(name: "app")
        let builds = Counter()
        try app.registerAsync(SlowService.self, scope: .singleton) { _ in
            builds.increment()
            try await Task.sleep(for: .milliseconds(100))
            return SlowService()
        }.implements((any Service).self)
        async let first = app.resolveAsync(SlowService.self)
        try await Task.sleep(for: .milliseconds(20))
        let error = try #require(throws: ResolutionError.self) { try app.resolve((any Service).self) }
        #expect(error.code == .asyncResolutionRequired)
        async let second = app.resolveAsync(SlowService.self)
        let (one, two) = try await (first, second)
        #expect(one === two)
        #expect(builds.value == 1)
        #expect(try await app.resolveAsync((any Service).self) as? SlowService === one)
    }
}
