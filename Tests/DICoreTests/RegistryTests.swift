import DICore
import DITestSupport
import Foundation
import Testing

/// A container's registrations as a request's container uses them: found while still pending (past the few
/// that are scanned), never built into a table by a container resolved from a few times, freed and disposed
/// at its close; and the retired tables of many small containers freed together in a process-wide batch.
@Suite struct RegistryTests {
    /// Records the order of disposals, and how often each instance was disposed.
    final class DisposalLog: Sendable {
        private let entries = Lock<[String]>([])
        func record(_ name: String) { entries.withLock { $0.append(name) } }
        var disposed: [String] { entries.withLock { $0 } }
    }

    /// A disposable request service, counted while alive; registered twice, under the names "First" and
    /// "Second", for two singletons of one request.
    final class Member: Disposable, Sendable {
        let name: String
        let log: DisposalLog
        let population: Population
        init(_ name: String, _ log: DisposalLog, _ population: Population) {
            self.name = name
            self.log = log
            self.population = population
            population.born()
        }
        deinit { population.died() }
        func dispose() { log.record(name) }
    }

    /// Registers the two members in `child`, as singletons.
    static func registerMembers(in child: Container, _ log: DisposalLog, _ population: Population) throws {
        for name in ["First", "Second"] {
            try child.register(Member.self, name: name, scope: .singleton) { _ in Member(name, log, population) }
        }
    }

    @Test func pendingRegistrationsAreFoundPastTheScannedFew() throws {
        let app = Container(name: "app")
        let child = app.child(name: "request")
        for index in 0..<20 {
            try child.register(Int.self, name: "key\(index)") { _ in index }
        }
        // Replacing keys registered before and after the scanned few moves them to the end, in order.
        try child.register(Int.self, name: "key2") { _ in 102 }
        try child.register(Int.self, name: "key15") { _ in 115 }
        for index in 0..<20 {
            let expected = index == 2 ? 102 : index == 15 ? 115 : index
            #expect(try child.resolve(Int.self, name: "key\(index)") == expected)
        }
        let names = child.registry.all.compactMap(\.name)
        #expect(names.count == 20)
        #expect(names.suffix(2) == ["key2", "key15"])
    }

    /// A key replaced while the few are scanned leaves a gap; the index built past them skips it, and every key,
    /// the replaced one included, is found before and after it is built.
    @Test func aKeyReplacedAmongTheScannedFewIsFoundOnceIndexed() throws {
        let child = Container(name: "app").child(name: "request")
        for index in 0..<5 { try child.register(Int.self, name: "key\(index)") { _ in index } }
        try child.register(Int.self, name: "key2") { _ in 102 }
        #expect(try child.resolve(Int.self, name: "key2") == 102)
        #expect(try child.resolve(Int.self, name: "key4") == 4)
        for index in 5..<20 { try child.register(Int.self, name: "key\(index)") { _ in index } }
        try child.register(Int.self, name: "key2") { _ in 202 }
        for index in 0..<20 {
            #expect(try child.resolve(Int.self, name: "key\(index)") == (index == 2 ? 202 : index))
        }
        #expect(child.registry.all.compactMap(\.name).count == 20)
    }

    /// A resolve through containers whose registrations are still pending looks among them at each level
    /// before walking on: a child's pending registration shadows its parent's published one, a parent's
    /// pending one is found from the child, and a key nobody registered still fails naming every container.
    @Test func resolvesWalkThroughPendingRegistrationsAtEveryLevel() throws {
        let app = Container(name: "app")
        try app.register(String.self) { _ in "app" }
        try app.register(Int.self, scope: .singleton) { _ in 1 }
        _ = try app.resolve(String.self)  // a few lookups publish the root's table
        for _ in 0..<8 { _ = try app.resolve(Int.self) }
        let server = app.child(name: "server")
        try server.register(Double.self) { _ in 2.5 }
        let request = server.child(name: "request")
        try request.register(String.self) { _ in "request" }
        try request.register(Int.self, name: "id") { _ in 7 }
        #expect(try request.resolve(String.self) == "request")
        #expect(try server.resolve(String.self) == "app")
        #expect(try request.resolve(Double.self) == 2.5)
        #expect(try request.resolve(Int.self, name: "id") == 7)
        #expect(try request.resolve(Int.self) == 1)
        let error = try #require(throws: ResolutionError.self) { try request.resolve(Float.self) }
        #expect(error.code == .notRegistered)
        #expect(error.searchedContainers == ["request", "server", "app"])
        request.close()
        let closed = try #require(throws: ResolutionError.self) { try request.resolve(Double.self) }
        #expect(closed.code == .containerClosed)
    }

    /// A request's container is asked mostly for its ancestors' services, which its few pending values are
    /// not: those lookups learn that from the bits of the pending keys, without the container's lock (and
    /// so never count towards publishing). Asking for the values themselves still takes it.
    @Test func lookupsOfKeysThatAreNotPendingTakeNoLock() throws {
        let server = Container(name: "server")
        try server.register(Int.self, scope: .singleton) { _ in 7 }
        try server.register(Double.self) { _ in 0.5 }
        let request = server.child(name: "request", tags: ["request"])
        try request.register(value: "request-1")
        try request.register(Bool.self, name: "flag", value: true)
        for _ in 0..<(Registry.lockedLookupsBeforePublishingFew * 3) {
            #expect(try request.resolve(Int.self) == 7)
            #expect(try request.resolve(Double.self) == 0.5)
            #expect(try request.resolveIfRegistered(Float.self) == nil)
        }
        let (locked, pending) = (request.registry.lockedLookupCount, request.registry.hasPending)
        #expect(locked == 0, "a lookup of an ancestor's service took the request container's lock")
        #expect(pending)
        #expect(try request.resolve(String.self) == "request-1")
        #expect(try request.resolve(Bool.self, name: "flag"))
        #expect(request.registry.lockedLookupCount == 2)
        #expect(throws: ResolutionError.self) { try request.resolve(Bool.self) }
    }

    /// What the request middleware of a server does: the child's few registrations never reach a table,
    /// however often they are looked up, so its close frees them at once — also here, where other tests'
    /// threads read containers — without the process-wide batch, and disposes newest first, once.
    @Test func requestContainerFreesAndDisposesWithoutATable() throws {
        let app = Container(name: "app")
        try app.register(Int.self) { _ in 7 }
        let log = DisposalLog()
        let population = Population()
        let child = app.child(name: "request", tags: ["request"])
        try Self.registerMembers(in: child, log, population)
        for _ in 0..<8 {  // twice the lookups after which a container with more pending publishes
            _ = try child.resolve(Member.self, name: "First")
            _ = try child.resolve(Member.self, name: "Second")
        }
        #expect(try child.resolve(Int.self) == 7)
        #expect(population.alive == 2)
        #expect(child.registry.retiredTableCount == 0, "the request's container built a table")

        child.close()
        #expect(log.disposed == ["Second", "First"])
        #expect(population.alive == 0, "the closed container's singletons are still alive")
        child.close()
        #expect(log.disposed.count == 2, "an instance was disposed twice")
        let error = #expect(throws: ResolutionError.self) { try child.resolve(Member.self, name: "First") }
        #expect(error?.code == .containerClosed)
        #expect(throws: RegistrationError.self) { try child.register(Int.self) { _ in 1 } }
    }

    /// Containers share the empty and the closed tables without writing to them: a server makes and closes a
    /// container per request on every core, and a reference count on a table they all share would bounce
    /// its cache line between the cores. A hundred containers, with values pending, with published tables,
    /// closed or not, add nothing to the shared tables' counts. (Other tests' threads run meanwhile; what
    /// they might retain for a moment is far below the hundred a retaining container would add to one.)
    @Test func containersKeepNoReferenceCountOnTheSharedTables() throws {
        func counts() -> [UInt] { RegistrationTable.shared.map { _getRetainCount($0) } }
        let before = counts()
        let app = Container(name: "app")
        var containers: [Container] = []
        for index in 0..<100 {
            let child = app.child(name: "request", tags: ["request"])
            if index % 2 == 0 { try child.register(Int.self, value: index) }
            if index % 4 == 0 { _ = child.registry.all }  // publishes the pending value
            if index % 3 == 0 { child.close() }
            containers.append(child)
        }
        let root = Container(name: "closed root")
        root.close()
        containers.append(root)
        for (before, after) in zip(before, counts()) {
            #expect(after < before + 50, "\(containers.count) containers retained a shared table")
        }
        #expect(containers.filter(\.isClosed).count == 35)
    }

    /// A long-lived container with a few registrations, resolved from again and again, folds them into a
    /// table once: its resolves then read the table without a lock, like every other container's. (A
    /// request's container, resolved from a few times, never gets there.) Also with a large published table
    /// and a few late registrations, the shape of an app that registers a feature's services later.
    @Test(arguments: [0, 200])
    func aFewRegistrationsResolvedOftenArePublished(publishedBefore: Int) throws {
        let app = Container(name: "app")
        for index in 0..<publishedBefore { try app.register(Int.self, name: "early\(index)") { _ in index } }
        for index in 0..<publishedBefore { _ = try app.resolve(Int.self, name: "early\(index)") }
        try app.register(String.self, scope: .singleton) { _ in "late" }
        let pendingAfterRegistering = app.registry.hasPending
        #expect(pendingAfterRegistering)
        for _ in 0..<(Registry.lockedLookupsBeforePublishingFew + publishedBefore / 16 + 1) {
            #expect(try app.resolve(String.self) == "late")
        }
        let pendingAfterResolving = app.registry.hasPending
        #expect(!pendingAfterResolving, "the late registration still waits outside the table")
    }

    /// In a process of its own, so that the count of batched tables is this test's alone. Another thread has
    /// read a container, so that closing cannot free without a barrier: the small tables of the closed
    /// containers go to the batch, which frees them after one barrier for many. (That thread then waits
    /// outside any read section, so that what the batch frees does not depend on how the machine schedules
    /// it; `childClosedWhileAnotherThreadResolvesThroughIt` races readers against closes.)
    @Test func retiredTablesOfSmallContainersAreFreedInBatches() async {
        let result = await #expect(
            processExitsWith: .success, observing: [\.standardOutputContent, \.standardErrorContent]
        ) {
            let app = Container(name: "app")
            try app.register(Int.self) { _ in 7 }
            let (ready, stop) = (Counter(), Counter())
            let reader = Thread {
                _ = try? app.resolve(Int.self)
                ready.increment()
                while stop.value == 0 { usleep(1_000) }
            }
            reader.start()
            while ready.value == 0 { usleep(100) }
            let log = DisposalLog()
            let population = Population()
            var mostBatched = 0
            for _ in 0..<200 {
                let child = app.child(name: "request", tags: ["request"])
                do {
                    try RegistryTests.registerMembers(in: child, log, population)
                    // More registrations than a request's few, and enough lookups to publish the child's
                    // table, which its close then retires.
                    for index in 0..<8 {
                        try child.register(Int.self, name: "filler\(index)") { _ in index }
                    }
                    for _ in 0..<4 {
                        _ = try child.resolve(Member.self, name: "First")
                        _ = try child.resolve(Member.self, name: "Second")
                    }
                } catch {
                    print("failed: \(error)")
                    exit(3)
                }
                child.close()
                mostBatched = max(mostBatched, Registry.batchedTableCount)
            }
            stop.increment()
            // 200 closed containers held 400 singletons; the batch frees them whenever it holds 64
            // registrations (7 of these tables of 10).
            print("most batched tables: \(mostBatched), alive: \(population.alive)")
            guard log.disposed.count == 400, mostBatched > 0 else { exit(2) }
            exit(mostBatched <= 32 && population.alive <= 66 ? 0 : 1)
        }
        let output = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
        let errors = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains("most batched tables:"), "\(output) \(errors)")
    }

    final class Unit: Disposable, Sendable {
        let disposals: Counter
        init(_ disposals: Counter) { self.disposals = disposals }
        func dispose() { disposals.increment() }
    }

    /// A request's container closed while another thread still resolves through it: that thread gets the
    /// instance or `containerClosed`, never freed memory, and the instance is disposed once.
    @Test(.timeLimit(.minutes(1)))
    func childClosedWhileAnotherThreadResolvesThroughIt() async throws {
        let app = Container(name: "app")
        try app.register(Int.self) { _ in 7 }
        for round in 0..<100 {
            let disposals = Counter()
            let child = app.child(name: "request", tags: ["request"])
            try child.register(Unit.self, scope: .singleton) { _ in Unit(disposals) }
            let started = Counter()
            let results = await raceOnThreads(2, within: .seconds(20)) { index -> String in
                if index == 0 {
                    while started.value == 0 {}
                    child.close()
                    return "closed"
                }
                while true {
                    do {
                        _ = try child.resolve(Unit.self)
                        guard try child.resolve(Int.self) == 7 else { return "wrong value" }
                        started.increment()
                    } catch let error as ResolutionError where error.code == .containerClosed {
                        return "closed"
                    } catch {
                        return "\(error)"
                    }
                }
            }
            #expect(results == ["closed", "closed"], "round \(round)")
            #expect(disposals.value == 1, "round \(round): disposed \(disposals.value) times")
        }
    }
}
