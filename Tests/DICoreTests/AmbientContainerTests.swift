import DICore
import Dispatch
import Testing

/// State isolated to an actor: `withContainer`'s closure may touch it synchronously only if it runs on the
/// caller's actor, so this compiles only because the async form keeps the caller's isolation.
fileprivate actor Ledger {
    var entries: [String] = []

    func record(in container: Container) async -> [String] {
        await withContainer(container) {
            entries.append(Container.current.name)
            await Task.yield()
            entries.append(Container.current.name)
        }
        return entries
    }
}

/// The ambient container: `Container.shared`, the task-local `Container.current` and `withContainer`.
@Suite(.timeLimit(.minutes(1))) struct AmbientContainerTests {
    @Test func currentIsSharedWhereNothingIsBound() {
        #expect(Container.current === Container.shared)
        #expect(Container.shared.parent == nil)
    }

    @Test func withContainerBindsForTheOperationOnly() {
        let checkout = Container(name: "checkout")
        let seen = withContainer(checkout) { Container.current }
        #expect(seen === checkout)
        #expect(Container.current === Container.shared)
    }

    @Test func bindingsNestInnermostWinning() {
        let app = Container(name: "app")
        let checkout = app.child(name: "checkout")
        let names = withContainer(app) {
            let inner = withContainer(checkout) { Container.current.name }
            return [inner, Container.current.name]
        }
        #expect(names == ["checkout", "app"])
    }

    @Test func syncFormKeepsTheErrorType() {
        let checkout = Container(name: "checkout")
        // `withContainer` is `throws(FactoryError)` here; catching without a cast proves it.
        do throws(FactoryError) {
            try withContainer(checkout) { () throws(FactoryError) in throw FactoryError(reason: "typed") }
        } catch {
            #expect(error.reason == "typed")
        }
        #expect(throws: FactoryError(reason: "plain")) {
            try withContainer(checkout) { throw FactoryError(reason: "plain") }
        }
    }

    @Test func asyncFormKeepsTheErrorTypeAndReturnsTheResult() async {
        let checkout = Container(name: "checkout")
        let name = await withContainer(checkout) {
            await Task.yield()
            return Container.current.name
        }
        #expect(name == "checkout")
        do throws(FactoryError) {
            try await withContainer(checkout) { () async throws(FactoryError) in
                await Task.yield()
                throw FactoryError(reason: "async typed")
            }
        } catch {
            #expect(error.reason == "async typed")
        }
    }

    @Test func asyncFormRunsOnTheCallersActor() async {
        let entries = await Ledger().record(in: Container(name: "ledger"))
        #expect(entries == ["ledger", "ledger"])
    }

    @MainActor @Test func asyncFormStaysOnTheMainActor() async {
        await withContainer(Container(name: "main")) {
            MainActor.assertIsolated()
            await Task.yield()
            MainActor.assertIsolated()
            #expect(Container.current.name == "main")
        }
    }

    @Test func taskLocalSpellingWorksToo() async throws {
        let checkout = Container(name: "checkout")
        let name = try await Container.$current.withValue(checkout) {
            try await Task.sleep(for: .milliseconds(1))
            return Container.current.name
        }
        #expect(name == "checkout")
    }

    @Test func childTasksInheritTheBinding() async {
        let checkout = Container(name: "checkout")
        let names = await withContainer(checkout) {
            async let fromAsyncLet = Container.current.name
            let fromTask = await Task { Container.current.name }.value
            let fromGroup = await withTaskGroup(of: String.self) { group in
                group.addTask { Container.current.name }
                return await group.next() ?? "none"
            }
            return [await fromAsyncLet, fromTask, fromGroup]
        }
        #expect(names == ["checkout", "checkout", "checkout"])
    }

    @Test func detachedTasksDoNotInheritButCanCarryACapturedContainer() async {
        let checkout = Container(name: "checkout")
        let (uncarried, carried) = await withContainer(checkout) {
            let uncarried = await Task.detached { Container.current.name }.value
            let captured = Container.current
            let carried = await Task.detached { withContainer(captured) { Container.current.name } }.value
            return (uncarried, carried)
        }
        #expect(uncarried == "shared")
        #expect(carried == "checkout")
    }

    @Test func dispatchQueuesDoNotInheritButCanCarryACapturedContainer() async {
        let checkout = Container(name: "checkout")
        let names = await withContainer(checkout) {
            let captured = Container.current
            return await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    let uncarried = Container.current.name
                    let carried = withContainer(captured) { Container.current.name }
                    continuation.resume(returning: [uncarried, carried])
                }
            }
        }
        #expect(names == ["shared", "checkout"])
    }

    @Test func insideAFactoryTheAmbientContainerIsTheFactorysOwn() throws {
        let app = Container(name: "app")
        let checkout = app.child(name: "checkout")
        try app.register(String.self, scope: .singleton) { _ in Container.ambient.name }
        try app.register(Substring.self) { _ in Substring(Container.ambient.name) }
        let (singleton, transient) = try withContainer(Container(name: "test")) {
            (try checkout.resolve(String.self), try checkout.resolve(Substring.self))
        }
        #expect(singleton == "app")          // a singleton's dependencies come from where it is registered
        #expect(transient == "checkout")     // a transient's from the container that was asked
        #expect(withContainer(checkout) { Container.ambient } === checkout)
    }

    @Test func insideAnAsyncFactoryTheAmbientContainerIsTheFactorysOwn() async throws {
        let app = Container(name: "app")
        try app.registerAsync(String.self, scope: .singleton) { _ in
            await Task.yield()
            return Container.ambient.name
        }
        let name = try await withContainer(Container(name: "test")) {
            try await app.child(name: "child").resolveAsync(String.self)
        }
        #expect(name == "app")
    }
}
