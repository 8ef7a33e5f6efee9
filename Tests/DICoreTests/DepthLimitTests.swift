import DICore
import Foundation
import Testing

/// Deep chains: the limit is configurable, a small thread stack stops a chain with an error instead of
/// crashing, and a deep chain of singletons holds no lock per level while it builds (ThreadSanitizer
/// aborts past 64 locks held by one thread).
@Suite(.serialized) struct DepthLimitTests {
    // Serialized: `Container.resolutionDepthLimit` is process-wide.

    /// A chain of `depth + 1` registrations of `scope`, `level0` → `level1` → … → `level<depth>`, each one more
    /// than the next; the first `async` are `async` factories resolving the next level with `resolveAsync`, the rest
    /// synchronous ones.
    static func chain(_ depth: Int, scope: Scope = .transient, async: Int = 0) throws -> Container {
        let app = Container(name: "app")
        for level in 0...depth {
            let name = "level\(level)", next = "level\(level + 1)"
            switch (level == depth, level < async) {
            case (true, true): try app.registerAsync(Int.self, name: name, scope: scope) { _ in 0 }
            case (true, false): try app.register(Int.self, name: name, scope: scope) { _ in 0 }
            case (false, true):
                try app.registerAsync(Int.self, name: name, scope: scope) { r in
                    try await r.resolveAsync(Int.self, name: next) + 1
                }
            case (false, false):
                try app.register(Int.self, name: name, scope: scope) { r in try r.resolve(Int.self, name: next) + 1 }
            }
        }
        return app
    }

    /// Resolves `level0` of `app` on a thread of its own with a stack of `stackSize` bytes; `nil` if the thread
    /// recorded no outcome.
    static func resolveOnThread(_ app: Container, stackSize: Int) -> Result<Int, any Error>? {
        let outcome = Lock<Result<Int, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            outcome.withLock { $0 = Result { try app.resolve(Int.self, name: "level0") } }
            done.signal()
        }
        thread.stackSize = stackSize
        thread.start()
        done.wait()
        return outcome.withLock { $0 }
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

    /// The error keeps the whole path; its description prints the two ends of it, not two hundred rows.
    @Test func aChainAtTheLimitPrintsItsEnds() throws {
        let app = try Self.chain(300)
        let error = try #require(throws: ResolutionError.self) { try app.resolve(Int.self, name: "level0") }
        let limit = Container.resolutionDepthLimit
        #expect(error.path.count == limit + 1)
        let lines = error.description.split(separator: "\n")
        let omitted = limit + 1 - 16
        #expect(lines.count == 2 + 16 + 1, "\(error)")
        #expect(lines[1].hasPrefix("  path:      Int \"level0\" → Int \"level1\" → "), "\(lines[1])")
        let gap = "Int \"level7\" → … \(omitted) more steps … → Int \"level\(limit - 7)\""
        #expect(lines[1].contains(gap), "\(lines[1])")
        #expect(lines[1].hasSuffix("Int \"level\(limit)\""), "\(lines[1])")
        #expect(lines[10] == "    … \(omitted) more steps …", "\(error)")
        #expect(lines.last?.hasPrefix("    Int \"level\(limit)\"") == true, "\(error)")
    }

    @Test func aDeepSingletonChainBuildsWithoutHoldingALockPerLevel() throws {
        let app = try Self.chain(150, scope: .singleton)
        #expect(try app.resolve(Int.self, name: "level0") == 150)
    }

    @Test(.timeLimit(.minutes(1)))
    func aChainTooDeepForASmallThreadStackFailsWithAnErrorInsteadOfCrashing() throws {
        let app = try Self.chain(190, scope: .singleton)
        // 512 KiB: secondary threads on Apple platforms.
        switch try #require(Self.resolveOnThread(app, stackSize: 512 * 1024)) {
        case .success(let value):
            #expect(value == 190)
        case .failure(let error):
            #expect((error as? ResolutionError)?.code == .depthLimitExceeded)
            print("512 KiB thread: \(error)".prefix(300))
        }
    }

    /// Factories with large frames of their own, up to about 40 KB a level: eight levels of the larger ones take
    /// more than the room a checkpoint keeps free by default, so the check must keep free what the last eight
    /// levels took. Whatever the size, the chain ends with its value or an error, never a crash.
    @Test(.timeLimit(.minutes(1)), arguments: 1...8)
    func factoriesWithLargeFramesStopWithAnErrorInsteadOfCrashing(blocks: Int) throws {
        let app = Container(name: "app")
        let depth = 190
        try app.register(Int.self, name: "level\(depth)") { _ in 0 }
        for level in 0..<depth {
            try app.register(Int.self, name: "level\(level)") { r in
                try Self.withLargeFrame(blocks: blocks) { try r.resolve(Int.self, name: "level\(level + 1)") + 1 }
            }
        }
        switch try #require(Self.resolveOnThread(app, stackSize: 1024 * 1024)) {
        case .success(let value):
            #expect(value == depth)
        case .failure(let error):
            #expect((error as? ResolutionError)?.code == .depthLimitExceeded)
            #expect("\(error)".contains("stack is nearly used up"), "\(error)")
        }
    }

    /// Runs `body` below `blocks` frames of 2 KB of data each (more in a debug build), each written before `body`
    /// runs and read after it, so that it stays on the stack meanwhile.
    @inline(never)
    static func withLargeFrame(blocks: Int, _ body: () throws -> Int) rethrows -> Int {
        typealias Block = SIMD64<UInt64>    // 512 bytes
        var frame = (Block(), Block(), Block(), Block())
        withUnsafeMutableBytes(of: &frame) { $0.storeBytes(of: 1, toByteOffset: $0.count - 8, as: UInt64.self) }
        let result = blocks > 1 ? try withLargeFrame(blocks: blocks - 1, body) : try body()
        return withUnsafeBytes(of: &frame) { result + Int($0.load(fromByteOffset: $0.count - 8, as: UInt64.self)) - 1 }
    }

    /// A chain of `depth + 1` transients, the last of which resolves level `back` again.
    static func cycle(_ depth: Int, back: Int) throws -> Container {
        let app = Container(name: "app")
        for level in 0...depth {
            let next = level == depth ? back : level + 1
            try app.register(Int.self, name: "level\(level)") { r in
                try r.resolve(Int.self, name: "level\(next)") + 1
            }
        }
        return app
    }

    // A push checks the thread's stack and grows its frames only every eighth level: the limit and cycle
    // detection must still be exact at, before and after those levels (and where the frames grow, at 16 and 32).
    // The limit is only ever raised here: suites running beside this one rely on the default.

    @Test(arguments: [201, 207, 208, 209, 216, 217, 240])
    func theLimitIsExactAtEveryLevel(limit: Int) throws {
        let saved = Container.resolutionDepthLimit
        defer { Container.resolutionDepthLimit = saved }
        Container.resolutionDepthLimit = limit
        #expect(try Self.chain(limit - 1).resolve(Int.self, name: "level0") == limit - 1)
        let error = try #require(throws: ResolutionError.self) {
            try Self.chain(limit).resolve(Int.self, name: "level0")
        }
        #expect(error.code == .depthLimitExceeded)
        #expect(error.path.count == limit + 1)
    }

    /// The limit counts a chain's `async` levels and the synchronous ones below them alike: the chain, not the
    /// thread's part of it, may be `limit` builds deep.
    @Test(arguments: [(201, 201), (201, 1), (201, 2), (201, 100), (201, 200), (216, 8), (216, 9), (240, 239)])
    func theLimitIsExactForAsyncChains(limit: Int, async: Int) async throws {
        let saved = Container.resolutionDepthLimit
        defer { Container.resolutionDepthLimit = saved }
        Container.resolutionDepthLimit = limit
        #expect(try await Self.chain(limit - 1, async: async).resolveAsync(Int.self, name: "level0") == limit - 1)
        let error = try await #require(throws: ResolutionError.self) {
            try await Self.chain(limit, async: async).resolveAsync(Int.self, name: "level0")
        }
        #expect(error.code == .depthLimitExceeded)
        #expect(error.path.count == limit + 1)
        #expect(error.path.first?.name == "level0")
        #expect(error.path.last?.name == "level\(limit)")
    }

    /// A synchronous build refused below an async chain at the limit leaves nothing of the chain on its thread:
    /// the thread would otherwise keep the chain's containers alive, and print its path in later errors.
    @Test(arguments: [1, 2, 3, 16])
    func aBuildRefusedBelowAnAsyncChainKeepsNothingOfIt(chains: Int) async throws {
        let saved = Container.resolutionDepthLimit
        defer { Container.resolutionDepthLimit = saved }
        Container.resolutionDepthLimit = 3
        weak var weakApp: Container?
        do {
            let app = try Self.chain(3, async: 3)
            weakApp = app
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<chains {
                    group.addTask {
                        let error = await #expect(throws: ResolutionError.self) {
                            try await app.resolveAsync(Int.self, name: "level0")
                        }
                        #expect(error?.code == .depthLimitExceeded)
                        #expect(error?.path.count == 4)
                    }
                }
            }
        }
        #expect(weakApp == nil, "a thread still holds the refused chain")
    }

    @Test(arguments: [0, 1, 6, 7, 8, 9, 15, 16, 17, 31, 32, 33])
    func cyclesAreFoundAtEveryLevel(depth: Int) throws {
        for back in Set([0, depth / 2, depth]) {
            let looping = try Self.cycle(depth, back: back)
            let error = try #require(throws: ResolutionError.self) { try looping.resolve(Int.self, name: "level0") }
            #expect(error.code == .circularDependency)
            #expect(error.path.count == depth + 2, "levels 0...\(depth), then level \(back) again")
            #expect(error.path.last?.name == "level\(back)")
        }
    }
}
