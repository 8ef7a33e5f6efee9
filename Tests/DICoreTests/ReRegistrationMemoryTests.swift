import DICore
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

    @Test func replacedTablesStayBoundedOverManyReRegistrations() throws {
        let app = try Self.container(keys: 200)
        var mostRetired = 0
        for generation in 0..<5_000 {
            try app.register(Handle.self, scope: .singleton) { _ in Handle(generation) }
            #expect(try app.resolve(Handle.self).generation == generation)
            mostRetired = max(mostRetired, app.registry.retiredTableCount)
        }
        // Alone, the retired tables hold at most about as many registrations as the live table (201 here), so
        // one or two are kept. Tests running in parallel hold read sections inside slow factories, which
        // keeps more for a while; without reclamation all 5,000 would be kept.
        #expect(mostRetired <= 64, "up to \(mostRetired) replaced tables were kept")
        #expect(try app.resolve(Int.self, name: "key199") == 199)
    }

    @Test func replacedSingletonsAreDeallocated() throws {
        let app = try Self.container(keys: 10)
        var replaced: [Weak<Handle>] = []
        for generation in 0..<500 {
            try app.register(Handle.self, scope: .singleton) { _ in Handle(generation) }
            replaced.append(Weak(try app.resolve(Handle.self)))
        }
        let alive = replaced.dropLast().filter { $0.object != nil }.count
        // A few of the latest tables may still wait for their turn to be freed.
        #expect(alive < 100, "\(alive) of 499 replaced singletons are still alive")
        #expect(replaced.last?.object?.generation == 499)
    }

    @Test(.timeLimit(.minutes(1)))
    func readersOnOtherThreadsKeepResolvingWhileTablesAreFreed() throws {
        let app = try Self.container(keys: 50)
        try app.register(Handle.self, scope: .singleton) { _ in Handle(-1) }
        let stop = Counter()
        let results = onThreads(4, within: 30) { index -> Int in
            var resolved = 0
            if index == 0 {
                for generation in 0..<5_000 {
                    try? app.register(Handle.self, scope: .singleton) { _ in Handle(generation) }
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
        #expect(results.allSatisfy { $0 != nil })
        #expect(try app.resolve(Handle.self).generation == 4_999)
    }
}

final class Weak<Object: AnyObject> {
    weak var object: Object?
    init(_ object: Object) { self.object = object }
}
