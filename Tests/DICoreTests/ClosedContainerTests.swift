import DICore
import DITestSupport
import Foundation
import Testing

/// A closed container hands out nothing it disposed: not itself, not through children made before or
/// after it closed.
@Suite(.timeLimit(.minutes(1))) struct ClosedContainerTests {
    final class Handle: Disposable, Sendable {
        private let disposed = Counter()
        func dispose() { disposed.increment() }
        var disposals: Int { disposed.value }
    }

    /// Closing drops the registrations still pending; one whose factory captured the last reference to a
    /// child drops the child too, whose `deinit` takes this container's lock to leave its list — the lock that
    /// guards the registrations. The drop comes after the lock is given up (a relock would stop the program in
    /// a debug build and hang a release build).
    @Test func closingDropsARegistrationThatCapturedTheLastReferenceToAChild() throws {
        let app = Container(name: "app")
        do {
            let captured = app.child(name: "captured")
            try app.register(Container.self, name: "captured") { _ in captured }
        }
        #expect(app.childCount == 1)
        app.close()
        #expect(app.childCount == 0)
        #expect(app.isClosed)
    }

    /// While an ancestor closes, its children are closed one after another, newest first: an older child is
    /// still open while a newer one disposes its instances, and the ancestor's registrations are gone. A
    /// lookup from the older child then is refused (`containerClosed`, naming the ancestor), not reported as
    /// missing — nor answered with `nil` by `resolveIfRegistered` or an empty `resolveAll`.
    @Test func aLookupFromAChildWhileItsAncestorClosesIsRefusedNotMissing() throws {
        final class Probe: Disposable, Sendable {
            let seen = Lock<[String]>([])
            let older: Container
            init(older: Container) { self.older = older }
            /// Runs while `app` closes `newer`, before it closes `older`.
            func dispose() {
                let older = older
                let asks: [() throws -> String] = [
                    { _ = try older.resolve(Handle.self); return "an instance" },
                    { try older.resolveIfRegistered(Handle.self).map { _ in "an instance" } ?? "nil" },
                    { "\(try older.resolveAll(Handle.self).count) instances" },
                    { try older.resolve(Handle?.self).map { _ in "an instance" } ?? "nil" },
                    { _ = try older.resolve((any Disposable).self, name: "alias"); return "an instance" },
                ]
                for ask in asks {
                    let outcome: String
                    do { outcome = try ask() } catch let error as ResolutionError {
                        outcome = "\(error.code): \(error.message)"
                    } catch { outcome = "\(error)" }
                    seen.withLock { $0.append(outcome) }
                }
            }
        }
        let app = Container(name: "app")
        let older = app.child(name: "older")
        let newer = app.child(name: "newer")
        try app.register(Handle.self) { _ in Handle() }
        try app.register(Handle.self, name: "alias") { _ in Handle() }.implements((any Disposable).self, name: "alias")
        try newer.register(Probe.self, scope: .singleton) { _ in Probe(older: older) }
        let probe = try newer.resolve(Probe.self)
        #expect(try older.resolve(Handle.self).disposals == 0, "resolves before the close")
        app.close()
        let seen = probe.seen.withLock { $0 }
        #expect(seen.count == 5)
        for outcome in seen {
            #expect(outcome.hasPrefix("containerClosed: "), "\(outcome)")
            #expect(outcome.contains("older's ancestor app is closed, and older is closing with it"), "\(outcome)")
            // The headline names the container whose close refused the lookup: `older` is not closed (yet).
            #expect(outcome.contains(": app is closed. older's ancestor"), "\(outcome)")
        }
    }

    /// A test container is closed when its test ends, so a refusal from it (or from a child of it) is work that
    /// outlived the test: the message says that, not "resolve from a container that is still open".
    @Test func aTestContainerUsedAfterItsTestSaysTheWorkOutlivedTheTest() throws {
        let app = Container(name: "app")
        try app.register(Int.self) { _ in 1 }
        let test = Container.makeTestContainer(from: app, name: "test checkout")
        let screen = test.child(name: "screen")
        test.close()
        let outlived = "work started by the test (a Task, a callback) outlived it. Await that work before the test "
            + "returns, or cancel it."

        let own = try #require(throws: ResolutionError.self) { try test.resolve(Int.self) }
        #expect(own.message.hasSuffix("It is a test container, closed when its test ended: " + outlived), "\(own)")
        let registering = try #require(throws: RegistrationError.self) { try test.register(Int.self) { _ in 2 } }
        #expect(registering.message.hasSuffix(
            "test checkout is closed: it is a test container, closed when its test ended: " + outlived
        ), "\(registering)")
        let below = try #require(throws: ResolutionError.self) { try screen.resolve(Int.self) }
        #expect(below.message.hasSuffix(
            "screen is closed, and so is its ancestor test checkout, the test container of a test that has ended, "
                + "and closing it closed its descendants: " + outlived
        ), "\(below)")
        // A plain container keeps its own way out.
        app.close()
        let plain = try #require(throws: ResolutionError.self) { try app.resolve(Int.self) }
        #expect(plain.message.hasSuffix("resolve from a container that is still open (a child made after close() is "
            + "closed too)."), "\(plain)")
    }

    @Test func aChildMadeAfterCloseIsClosedToo() throws {
        let app = Container(name: "app")
        try app.register(Handle.self, scope: .singleton) { _ in Handle() }
        let handle = try app.resolve(Handle.self)
        app.close()
        #expect(handle.disposals == 1)
        let late = app.child(name: "late")
        #expect(late.isClosed)
        let error = try #require(throws: ResolutionError.self) { try late.resolve(Handle.self) }
        #expect(error.code == .containerClosed)
        #expect(error.description.contains("late"))
        #expect(
            error.message.contains(": app is closed. late is closed, and so is its ancestor app"), "\(error.message)"
        )
        let registration = try #require(throws: RegistrationError.self) {
            try late.register(Int.self) { _ in 1 }
        }
        #expect(registration.code == .containerClosed)
        let grandchild = late.child(name: "later")
        #expect(throws: ResolutionError.self) { try grandchild.resolve(Handle.self) }
        #expect(handle.disposals == 1)
    }

    @Test func aChildMadeBeforeCloseCannotResolveTheDisposedInstance() async throws {
        let app = Container(name: "app")
        try app.register(Handle.self, scope: .singleton) { _ in Handle() }
        let early = app.child(name: "early")
        _ = try early.resolve(Handle.self)
        app.close()
        let error = try #require(throws: ResolutionError.self) { try early.resolve(Handle.self) }
        #expect(error.code == .containerClosed)
        await #expect(throws: ResolutionError.self) { try await early.resolveAsync(Handle.self) }
        #expect(throws: ResolutionError.self) { try early.resolve(Handle.self, arguments: 1) }
    }

    /// The container closes while one asker builds its singleton and the others wait for that build: the
    /// build's instance is disposed once, and every asker gets `containerClosed`, none the disposed instance (the
    /// waiters used to look again between the build's store and the close's refusal, and find it). Threads with
    /// a synchronous factory and tasks with an `async` one, 1, 2, 3 and 16 askers.
    @Test(arguments: [false, true], [1, 2, 3, 16])
    func askersWaitingForASingletonWhoseContainerClosesGetContainerClosed(async: Bool, askers: Int) async throws {
        let app = Container(name: "app")
        let builds = Counter()
        let handles = Lock<[Handle]>([])
        let (entered, proceed) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let build = { @Sendable () -> Handle in
            let handle = Handle()
            builds.increment()
            handles.withLock { $0.append(handle) }
            return handle
        }
        if async {
            try app.registerAsync(Handle.self, scope: .singleton) { _ in
                entered.signal()
                await proceed.waitOffThePool()
                return build()
            }
        } else {
            try app.register(Handle.self, scope: .singleton) { _ in
                entered.signal()
                proceed.wait()
                return build()
            }
        }
        let asked = Task { () -> [Outcome]? in
            guard async else { return await raceOnThreads(askers) { _ in Outcome { try app.resolve(Handle.self) } } }
            let tasks = (0..<askers).map { _ in Task { await Outcome { try await app.resolveAsync(Handle.self) } } }
            var outcomes: [Outcome] = []
            for task in tasks { outcomes.append(await task.value) }
            return outcomes
        }
        await entered.waitOffThePool()
        try await Task.sleep(for: .milliseconds(20))
        app.close()
        proceed.signal()
        let outcomes = try #require(await asked.value, "the askers did not return")
        #expect(outcomes.allSatisfy { $0 == .failed(.containerClosed) }, "\(outcomes)")
        #expect(builds.value == 1)
        #expect(handles.withLock { $0.map(\.disposals) } == [1])
    }

    @Test func anInstanceFinishedAfterItsHolderClosedIsDisposedAndNotHandedOut() throws {
        let app = Container(name: "app")
        let handles = Lock<[Handle]>([])
        try app.register(Handle.self, scope: .singleton) { _ in
            app.close()      // the container closes while this build runs
            let handle = Handle()
            handles.withLock { $0.append(handle) }
            return handle
        }
        let error = try #require(throws: ResolutionError.self) { try app.resolve(Handle.self) }
        #expect(error.code == .containerClosed)
        #expect(handles.withLock { $0.map(\.disposals) } == [1])
    }
}
