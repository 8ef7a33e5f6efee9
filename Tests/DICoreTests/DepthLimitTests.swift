import DICore
import Foundation
import Testing

/// Deep chains: the limit is configurable, a small thread stack stops a chain with an error instead of
/// crashing, and a deep chain of singletons holds no lock per level while it builds (ThreadSanitizer
/// aborts past 64 locks held by one thread).
@Suite(.serialized) struct DepthLimitTests {
    // Serialized: `Container.resolutionDepthLimit` is process-wide.

    static func chain(_ depth: Int, scope: Scope = .transient) throws -> Container {
        let app = Container(name: "app")
        try app.register(Int.self, name: "level\(depth)", scope: scope) { _ in 0 }
        for level in 0..<depth {
            try app.register(Int.self, name: "level\(level)", scope: scope) { r in
                try r.resolve(Int.self, name: "level\(level + 1)") + 1
            }
        }
        return app
    }

    @Test func theLimitIsConfigurable() throws {
        let app = try Self.chain(300)
        let error = try #require(throws: ResolutionError.self) { try app.resolve(Int.self, name: "level0") }
        #expect(error.code == .depthLimitExceeded)
        #expect(error.description.contains("Container.resolutionDepthLimit"))
        let saved = Container.resolutionDepthLimit
        defer { Container.resolutionDepthLimit = saved }
        Container.resolutionDepthLimit = 400
        #expect(try app.resolve(Int.self, name: "level0") == 300)
    }

    @Test func aDeepSingletonChainBuildsWithoutHoldingALockPerLevel() throws {
        let app = try Self.chain(150, scope: .singleton)
        #expect(try app.resolve(Int.self, name: "level0") == 150)
    }

    @Test(.timeLimit(.minutes(1)))
    func aChainTooDeepForASmallThreadStackFailsWithAnErrorInsteadOfCrashing() throws {
        let app = try Self.chain(190, scope: .singleton)
        let outcome = Lock<Result<Int, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            outcome.withLock { $0 = Result { try app.resolve(Int.self, name: "level0") } }
            done.signal()
        }
        thread.stackSize = 512 * 1024    // secondary threads on Apple platforms
        thread.start()
        done.wait()
        switch try #require(outcome.withLock { $0 }) {
        case .success(let value):
            #expect(value == 190)
        case .failure(let error):
            #expect((error as? ResolutionError)?.code == .depthLimitExceeded)
            print("512 KiB thread: \(error)".prefix(300))
        }
    }
}
