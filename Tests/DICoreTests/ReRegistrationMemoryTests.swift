import DICore
import DITestSupport
import Foundation
import Testing

/// A long-lived container re-registered thousands of times keeps bounded memory: replaced tables are
/// freed once no reader can see them, and with them the replaced registrations and their singletons.
@Suite struct ReRegistrationMemoryTests {
    final class Handle: Sendable {
        let generation: Int
        init(_ generation: Int) { self.generation = generation }
    }

    static func container(keys: Int) throws -> Container {
        let app = Container(name: "app")
        for index in 0..<keys {
            try app.register(Int.self, name: "key\(index)", scope: .singleton) { _ in index }
        }
        _ = try app.resolve(Int.self, name: "key0")    // publish the table
        return app
    }

    /// In a process of its own: tests running in parallel hold read sections inside slow factories (and
    /// while they wait for each other's builds), which rightly keeps tables alive for a while.
    @Test func replacedTablesStayBoundedOverManyReRegistrations() async throws {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            let app = try ReRegistrationMemoryTests.container(keys: 200)
            var mostRetired = 0
            for generation in 0..<5_000 {
                try app.register(Handle.self, scope: .singleton) { _ in Handle(generation) }
                guard try app.resolve(Handle.self).generation == generation else { exit(2) }
                mostRetired = max(mostRetired, app.registry.retiredTableCount)
            }
            print("most retired tables: \(mostRetired)")
            // The retired tables hold at most about as many registrations as the live table (201 here);
            // without reclamation all 5,000 replaced tables would be kept.
            exit(mostRetired <= 2 ? 0 : 1)
        }
        let output = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
        #expect(output.contains("most retired tables:"), "\(output)")
    }

    /// In a process of its own, for the reason above.
    @Test func replacedSingletonsAreDeallocated() async throws {
        await #expect(processExitsWith: .success) {
            let app = try ReRegistrationMemoryTests.container(keys: 10)
            var replaced: [Weak<Handle>] = []
            for generation in 0..<500 {
                try app.register(Handle.self, scope: .singleton) { _ in Handle(generation) }
                replaced.append(Weak(try app.resolve(Handle.self)))
            }
            // The latest few tables wait for the next reclamation; without it all 499 would be alive.
            let alive = replaced.dropLast().filter { $0.object != nil }.count
            exit(alive < 20 && replaced.last?.object?.generation == 499 ? 0 : 1)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func readersOnOtherThreadsKeepResolvingWhileTablesAreFreed() async throws {
        let app = try Self.container(keys: 50)
        try app.register(Handle.self, scope: .singleton) { _ in Handle(-1) }
        let stop = Counter()
        // Two readers and one writer: more threads than the two cores of a CI machine only slow the writer
        // (under ThreadSanitizer, past the time limit) without adding interleavings.
        let results = await raceOnThreads(3, within: .seconds(45)) { index -> Int in
            var resolved = 0
            if index == 0 {
                for generation in 0..<2_000 {
                    _ = try? app.register(Handle.self, scope: .singleton) { _ in Handle(generation) }
                }
                stop.increment()
                return 0
            }
            while stop.value == 0 {
                if (try? app.resolve(Int.self, name: "key\(resolved % 50)")) == resolved % 50 { resolved += 1 }
                _ = try? app.resolve(Handle.self)
            }
            return resolved
        }
        #expect(results != nil, "readers or the registering thread hung")
        #expect(try app.resolve(Handle.self).generation == 1_999)
    }
}

final class Weak<Object: AnyObject> {
    weak var object: Object?
    init(_ object: Object) { self.object = object }
}
