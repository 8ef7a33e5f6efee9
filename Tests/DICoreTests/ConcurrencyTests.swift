import DICore
import Foundation
import Synchronization
import Testing

/// The concurrency rules of the "Concurrency and Reliability" article. Run also under `swift test --sanitize=thread`.
@Suite(.timeLimit(.minutes(1))) struct ConcurrencyTests {
    @Test func singletonIsBuiltExactlyOnceWhenAHundredTasksAskAtOnce() async throws {
        let app = Container(name: "app")
        let counter = Counter()
        try app.register(ConsoleLogger.self, scope: .singleton) { _ in
            counter.increment()
            usleep(2_000)
            return ConsoleLogger()
        }
        let child = app.child(name: "child")
        let loggers = try await withThrowingTaskGroup(of: ConsoleLogger.self) { group in
            for index in 0..<100 {
                group.addTask { try (index.isMultiple(of: 2) ? app : child).resolve(ConsoleLogger.self) }
            }
            return try await group.reduce(into: [ConsoleLogger]()) { $0.append($1) }
        }
        #expect(counter.value == 1)
        #expect(loggers.allSatisfy { $0 === loggers[0] })
    }

    @Test func reentrantFactoriesNeverDeadlock() async throws {
        let app = Container(name: "app")
        try app.register((any Logger).self, scope: .singleton) { _ in ConsoleLogger() }
        try app.register(Database.self, scope: .singleton) { r in Database(logger: try r.resolve((any Logger).self)) }
        try app.register(Repository.self, scope: .singleton) { r in Repository(database: try r.resolve(Database.self)) }
        try app.register(ViewModel.self) { r in ViewModel(repository: try r.resolve(Repository.self)) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                group.addTask {
                    switch index % 3 {
                    case 0: _ = try app.resolve(ViewModel.self)
                    case 1: _ = try app.resolve(Database.self)
                    default: _ = try app.child(name: "c\(index)").resolve(Repository.self)
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try app.resolve(ViewModel.self).repository === app.resolve(Repository.self))
    }

    @Test func factoryMayRegisterResolveAndCreateChildrenWhileBuilding() throws {
        let app = Container(name: "app")
        try app.register(String.self, scope: .singleton) { r in
            try app.register(Int.self, name: "late") { _ in 5 }
            let child = app.child(name: "inner")
            return "value \(try child.resolve(Int.self, name: "late"))"
        }
        #expect(try app.resolve(String.self) == "value 5")
    }

    @Test func concurrentRegisterResolveAndChildCreationIsSafe() async throws {
        let app = Container(name: "app")
        try app.register(Int.self, name: "seed") { _ in 0 }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for index in 0..<200 {
                        try app.register(Int.self, name: "t\(task)-\(index)", scope: .singleton) { _ in index }
                        #expect(try app.resolve(Int.self, name: "t\(task)-\(index)") == index)
                        let child = app.child(name: "child\(task)-\(index)")
                        try child.register(Int.self, name: "seed") { _ in -1 }
                        #expect(try child.resolve(Int.self, name: "seed") == -1)
                        #expect(try app.resolve(Int.self, name: "seed") == 0)
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try app.resolve(Int.self, name: "t7-199") == 199)
    }

    final class First: Sendable { init(_ second: Second) {} }
    final class Second: Sendable { init(_ first: First) {} }

    /// Two threads each start building one half of a singleton cycle; each then needs the other's half.
    /// Without the waits-for graph this deadlocks; with it, at least one thread gets a cycle error and
    /// the other either gets one too or finishes.
    @Test func cycleBuiltFromTwoThreadsAtOnceEndsInACycleErrorNotAHang() throws {
        let app = Container(name: "app")
        let started = Atomic<Int>(0)
        // A factory waits (at most 5 s) until both threads are inside a factory, so each holds one half.
        @Sendable func arriveAndWaitForBoth() {
            started.add(1, ordering: .relaxed)
            let deadline = Date().addingTimeInterval(5)
            while started.load(ordering: .relaxed) < 2 && Date() < deadline { usleep(100) }
        }
        try app.register(First.self, scope: .singleton) { r in
            arriveAndWaitForBoth()
            return First(try r.resolve(Second.self))
        }
        try app.register(Second.self, scope: .singleton) { r in
            arriveAndWaitForBoth()
            return Second(try r.resolve(First.self))
        }
        let results = Results()
        let done = DispatchGroup()
        for start in [0, 1] {
            done.enter()
            Thread.detachNewThread {
                do {
                    if start == 0 { _ = try app.resolve(First.self) } else { _ = try app.resolve(Second.self) }
                    results.add("resolved")
                } catch let error as ResolutionError {
                    results.add(error.code.name)
                } catch {
                    results.add("other")
                }
                done.leave()
            }
        }
        #expect(done.wait(timeout: .now() + 20) == .success, "the two threads deadlocked")
        #expect(results.values.contains("circularDependency"))
        #expect(!results.values.contains("other"))
    }

    final class Results: Sendable {
        private let storage = Lock<[String]>([])
        func add(_ value: String) { storage.withLock { $0.append(value) } }
        var values: [String] { storage.withLock { $0 } }
    }
}
