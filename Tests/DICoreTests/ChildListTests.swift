import DICore
import Dispatch
import Foundation
import Testing

/// A parent lists its children without keeping them alive and without a weak reference (which would give
/// every child a side table and slow each of its retains), and closing the parent still reaches every child
/// that is alive, also while other threads drop children at the same moment.
@Suite(.timeLimit(.minutes(1))) struct ChildListTests {
    final class Handle: Disposable, Sendable {
        private let disposed = Counter()
        func dispose() { disposed.increment() }
        var disposals: Int { disposed.value }
    }

    @Test func aDroppedChildLeavesItsParentsList() {
        let app = Container(name: "app")
        let kept = app.child(name: "kept")
        for index in 0..<1_000 { _ = app.child(name: "dropped-\(index)") }
        #expect(app.childCount == 1)
        #expect(app.children.map(\.name) == ["kept"])
        withExtendedLifetime(kept) {}
    }

    /// A chain of containers that only the innermost keeps alive is freed from the inside out, each child
    /// leaving its parent's list: a hundred thousand levels, released without overflowing the stack.
    @Test func aDeepChainOfContainersIsFreedWithoutOverflowingTheStack() {
        let root = Container(name: "root")
        var innermost = root.child(name: "level")
        for _ in 1..<100_000 { innermost = innermost.child(name: "level") }
        #expect(root.childCount == 1)
        innermost = Container(name: "another")
        #expect(root.childCount == 0)
        #expect(innermost.parent == nil)
    }

    @Test func neitherTheChildListNorAFailedLookupReferencesAContainerWeakly() throws {
        let app = Container(name: "app")
        let child = app.child(name: "request")
        // One weak count is the object's own; a weak reference adds one, kept in a side table.
        #expect(_getWeakRetainCount(child) == 1, "the parent references its child weakly")
        let table = Container(name: "table")
        try table.register(Int.self, name: "primary") { _ in 1 }
        let error = try #require(throws: ResolutionError.self) { try table.resolve(Int.self, name: "primray") }
        #expect(_getWeakRetainCount(table) == 1, "a failed lookup in a lone container references it weakly")
        #expect(error.description.contains("Did you mean \"primary\"?"), "\(error)")
    }

    @Test func aFailedLookupStillFindsRegistrationsInContainersTheAskerCannotSee() throws {
        let app = Container(name: "app")
        let checkout = app.child(name: "checkout")
        let cart = app.child(name: "cart")
        try checkout.register(Int.self, name: "fee") { _ in 1 }
        let error = try #require(throws: ResolutionError.self) { try cart.resolve(Int.self, name: "fee") }
        #expect(error.description.contains("checkout"), "\(error)")
        withExtendedLifetime(checkout) {}
    }

    @Test(arguments: [1, 2, 3, 16])
    func closingWhileOtherThreadsMakeAndDropChildrenClosesEveryChildStillAlive(threads: Int) throws {
        for round in 0..<20 {
            let app = Container(name: "app")
            let survivors = Survivors()
            let done = Self.start(threads) { thread in
                for index in 0..<200 {
                    let child = app.child(name: "t\(thread)-\(index)")
                    _ = try? child.register(Handle.self, scope: .singleton) { _ in Handle() }
                    let handle = try? child.resolve(Handle.self)
                    // Every fourth child outlives the loop; the others are dropped at once, some while the
                    // parent closes.
                    if index % 4 == 0 { survivors.add(child, handle) }
                }
            }
            if round % 2 == 0 { Thread.sleep(forTimeInterval: 0.000_1) }
            app.close()
            #expect(done.wait(timeout: .now() + 30) == .success, "the threads did not finish")
            for (child, handle) in survivors.all {
                #expect(child.isClosed, "a child alive when its parent closed is open")
                if let handle { #expect(handle.disposals == 1, "\(child.name)'s handle was not disposed once") }
                #expect(throws: ResolutionError.self) { try child.resolve(Handle.self) }
            }
        }
    }

    /// Each thread lists its children in a shard of its own; the list still reads oldest first across shards.
    /// Two threads take turns making children, so that neither shard alone, nor one after the other, is the
    /// order they were made in.
    @Test func childrenMadeByThreadsTakingTurnsAreListedOldestFirst() throws {
        let app = Container(name: "app")
        let kept = Survivors()
        let turns = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
        let count = 12
        let done = Self.start(2) { thread in
            for index in stride(from: thread, to: count, by: 2) {
                turns[thread].wait()
                kept.add(app.child(name: "c\(index)"), nil)
                turns[1 - thread].signal()
            }
        }
        turns[0].signal()
        #expect(done.wait(timeout: .now() + 30) == .success, "the threads did not finish")
        #expect(app.children.map(\.name) == (0..<count).map { "c\($0)" })
        #expect(app.childCount == count)
    }

    @Test(arguments: [1, 2, 3, 16])
    func childrenMadeOnManyThreadsAtOnceAreEachListedOnceAndLeaveWhenDropped(threads: Int) throws {
        let app = Container(name: "app")
        let kept = Survivors()
        let done = Self.start(threads) { thread in
            for index in 0..<100 {
                kept.add(app.child(name: "t\(thread)-\(index)"), nil)
                // Dropped at once, while the other threads add theirs.
                _ = app.child(name: "dropped")
            }
        }
        #expect(done.wait(timeout: .now() + 30) == .success, "the threads did not finish")
        do {
            let listed = app.children
            #expect(listed.count == threads * 100)
            #expect(Set(listed.map(ObjectIdentifier.init)).count == threads * 100, "a child is listed twice")
            for thread in 0..<threads {
                let own = listed.map(\.name).filter { $0.hasPrefix("t\(thread)-") }
                #expect(own == (0..<100).map { "t\(thread)-\($0)" }, "thread \(thread)'s children are out of order")
            }
        }
        kept.removeAll()
        #expect(app.childCount == 0)
        #expect(app.children.count == 0)
    }

    /// Starts `count` threads, each running `body` with its number; the group is left when all have returned.
    static func start(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) -> DispatchGroup {
        let done = DispatchGroup()
        for thread in 0..<count {
            done.enter()
            Thread.detachNewThread {
                defer { done.leave() }
                body(thread)
            }
        }
        return done
    }

    final class Survivors: Sendable {
        private let storage = Lock<[(Container, Handle?)]>([])
        func add(_ child: Container, _ handle: Handle?) { storage.withLock { $0.append((child, handle)) } }
        var all: [(Container, Handle?)] { storage.withLock { $0 } }
        func removeAll() { storage.withLock { $0.removeAll() } }
    }
}
