import DICore
import DIScopes
import DITestSupport
import Foundation
import Testing

/// A reset that comes while an instance is being built: the build's asker, and those waiting for the same
/// build, may still get that instance, but the next resolve after the reset builds a new one, and every
/// instance built is disposed exactly once. For each lifetime a container can reset, in a cell of the holding
/// container and past its cells, synchronously and `async`, with 1, 2, 3 and 16 askers. Run also under
/// `swift test --sanitize=thread`.
@Suite(.timeLimit(.minutes(1))) struct ResetDuringBuildTests {
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case cached, scoped, matching, weak, custom

        var testDescription: String { rawValue }

        /// Whether its instances live in a container's cells or slot store (`.weak` and custom scopes keep
        /// theirs elsewhere).
        var usesCells: Bool { self == .cached || self == .scoped || self == .matching }
    }

    /// An app and a request container, and a `Widget` of the kind under test whose first build waits at a
    /// gate; the test resets the widget's scope while that build waits. The widget is asked of the request
    /// container, or of a test container made from it, which keeps its own instance.
    private struct Shop {
        let app = Container(name: "app")
        let request: Container
        /// What the widget is asked of: `request`, or a test container made from it.
        let asker: Container
        let scope: Scope
        let log = Log()
        let builds = Counter()
        /// Signalled when the first build reaches the gate.
        let entered = DispatchSemaphore(value: 0)
        /// Opens the gate.
        let proceed = DispatchSemaphore(value: 0)

        init(_ kind: Kind, pastTheCells: Bool, async: Bool, inATestContainer: Bool = false) throws {
            request = app.child(name: "request", tags: ["request"])
            asker = inATestContainer ? Container.makeTestContainer(from: request, name: "test") : request
            scope = switch kind {
            case .cached: .cached
            case .scoped: .scoped
            case .matching: .matching("request")
            case .weak: .weak
            case .custom: .custom("user", storage: DictionaryStorage())
            }
            let (log, builds, entered, proceed) = (log, builds, entered, proceed)
            if pastTheCells {
                // Every cell of the app (`.cached`) and of the request (`.scoped`, `.matching`) bound first.
                for index in 0..<8 {
                    try app.register(Point.self, name: "cached\(index)", scope: .cached) { _ in Point() }
                    try app.register(Point.self, name: "scoped\(index)", scope: .scoped) { _ in Point() }
                    _ = try app.resolve(Point.self, name: "cached\(index)")
                    _ = try request.resolve(Point.self, name: "scoped\(index)")
                }
            }
            if async {
                try app.registerAsync(Widget.self, scope: scope) { _ in
                    let serial = builds.increment()
                    if serial == 1 {
                        entered.signal()
                        await proceed.waitOffThePool()
                    }
                    return Widget(origin: "app", serial: serial, log: log)
                }.implements((any Part).self)
            } else {
                try app.register(Widget.self, scope: scope) { _ in
                    let serial = builds.increment()
                    if serial == 1 {
                        entered.signal()
                        proceed.wait()
                    }
                    return Widget(origin: "app", serial: serial, log: log)
                }.implements((any Part).self)
            }
        }

        /// Resets the widget's scope where its instance is held.
        func reset() {
            app.reset(scope, includingDescendants: true)
        }

        /// Registers the widget again, with the same scope and the alias `Part`, and a factory that never waits.
        func registerAgain() throws {
            let (log, builds) = (log, builds)
            try app.register(Widget.self, scope: scope) { _ in
                Widget(origin: "again", serial: builds.increment(), log: log)
            }.implements((any Part).self)
        }

        /// Resolves the widget from `asker`, directly or through its alias `Part`.
        func resolve(throughAlias: Bool) throws -> Widget {
            guard throughAlias else { return try asker.resolve(Widget.self) }
            return try #require(try asker.resolve((any Part).self) as? Widget)
        }

        /// `resolve(throughAlias:)` with `resolveAsync`.
        func resolveAsync(throughAlias: Bool) async throws -> Widget {
            guard throughAlias else { return try await asker.resolveAsync(Widget.self) }
            return try #require(try await asker.resolveAsync((any Part).self) as? Widget)
        }

        /// Starts `askers` resolves of the widget — on threads, or in tasks with `resolveAsync` when `async` —
        /// the first of which begins the build that waits at the gate; runs `meanwhile` once the others had
        /// time to queue behind it, then opens the gate. Returns what each asker got (the first asker's
        /// first) and what a resolve after everything gets.
        func askWhileTheBuildWaits(
            askers: Int, async: Bool, throughAlias: Bool = false, meanwhile: () throws -> Void
        ) async throws -> (got: [Widget?], next: Widget) {
            if async {
                let first = Task { try? await resolveAsync(throughAlias: throughAlias) }
                await entered.waitOffThePool()
                let others = (1..<askers).map { _ in Task { try? await resolveAsync(throughAlias: throughAlias) } }
                try await Task.sleep(for: .milliseconds(10))
                try meanwhile()
                proceed.signal()
                var got = [await first.value]
                for other in others { got.append(await other.value) }
                return (got, try await resolveAsync(throughAlias: throughAlias))
            }
            // The first asker starts the build; the others ask while it waits at the gate.
            let asked = Task {
                await raceOnThreads(askers) { asker -> Widget? in
                    if asker > 0 { entered.wait(); entered.signal() }
                    return try? resolve(throughAlias: throughAlias)
                }
            }
            await entered.waitOffThePool()
            entered.signal()
            try await Task.sleep(for: .milliseconds(10))
            try meanwhile()
            proceed.signal()
            let got = try #require(await asked.value, "the askers did not return")
            return (got, try resolve(throughAlias: throughAlias))
        }
    }

    @Test(arguments: Kind.allCases, [1, 2, 3, 16])
    func synchronousBuild(kind: Kind, askers: Int) async throws {
        for pastTheCells in kind.usesCells ? [false, true] : [false] {
            let shop = try Shop(kind, pastTheCells: pastTheCells, async: false)
            let (got, next) = try await shop.askWhileTheBuildWaits(askers: askers, async: false) { shop.reset() }
            try check(shop, got: got, next: next, kind, pastTheCells)
        }
    }

    @Test(arguments: Kind.allCases, [1, 2, 3, 16])
    func asyncBuild(kind: Kind, askers: Int) async throws {
        for pastTheCells in kind.usesCells ? [false, true] : [false] {
            let shop = try Shop(kind, pastTheCells: pastTheCells, async: true)
            let (got, next) = try await shop.askWhileTheBuildWaits(askers: askers, async: true) { shop.reset() }
            try check(shop, got: got, next: next, kind, pastTheCells)
        }
    }

    /// The widget is registered again while its first build waits, and asked directly or through its alias, of
    /// the request container or of a test container made from it: the build's asker, and those waiting for it,
    /// may still get the old registration's instance, but the next resolve gets one of the new registration's;
    /// nothing is disposed while in use, and every instance built is disposed exactly once, the late one when
    /// its holder closes.
    @Test(arguments: Kind.allCases, [1, 2, 3, 16])
    func registeringAgainDuringABuild(kind: Kind, askers: Int) async throws {
        let variants = [false, true].flatMap { async in
            [false, true].flatMap { alias in [false, true].map { test in (async, alias, test) } }
        }
        for (async, throughAlias, inATestContainer) in variants {
            let shop = try Shop(kind, pastTheCells: false, async: async, inATestContainer: inATestContainer)
            let (got, next) = try await shop.askWhileTheBuildWaits(
                askers: askers, async: async, throughAlias: throughAlias
            ) { try shop.registerAgain() }
            let context = "async: \(async), through the alias: \(throughAlias), in a test container: "
                + "\(inATestContainer)"
            #expect(got.first??.origin == "app", "the first asker gets the build it began (\(context))")
            #expect(next.origin == "again", "the next resolve uses the new registration (\(context))")
            try check(shop, got: got, next: next, kind, false)
        }
    }

    /// `got[0]` is the first asker's instance, built across the reset; `next` the resolve after everything.
    private func check(_ shop: Shop, got: [Widget?], next: Widget, _ kind: Kind, _ pastTheCells: Bool) throws {
        let where_ = pastTheCells ? "past the cells" : "in a cell"
        let early = try #require(got[0], "the first asker got no instance (\(where_))")
        #expect(got.allSatisfy { $0 != nil }, "every asker gets an instance (\(where_))")
        #expect(next !== early, "the next resolve after the reset builds a new instance (\(where_))")
        #expect(shop.log.entries.isEmpty, "nothing disposed while it is in use (\(where_)): \(shop.log.entries)")
        if shop.asker !== shop.request { shop.asker.close() }
        shop.request.close()
        shop.app.close()
        withExtendedLifetime((got, next)) {}
        guard kind != .weak else { return }
        let disposed = shop.log.entries
        #expect(Set(disposed).count == disposed.count, "disposed twice (\(where_)): \(disposed)")
        #expect(disposed.count == shop.builds.value, "built \(shop.builds.value), disposed \(disposed) (\(where_))")
    }

    /// The instance a reset overtook is held apart until the next reset of its scope, which disposes it once,
    /// as it disposes what it drops.
    @Test(arguments: [Kind.cached, .scoped, .matching])
    func theNextResetDisposesTheOvertakenInstance(kind: Kind) async throws {
        let shop = try Shop(kind, pastTheCells: false, async: true)
        let first = Task { try await shop.request.resolveAsync(Widget.self) }
        await shop.entered.waitOffThePool()
        shop.reset()
        shop.proceed.signal()
        let early = try await first.value
        let next = try await shop.request.resolveAsync(Widget.self)
        #expect(shop.log.entries.isEmpty)
        shop.reset()
        #expect(shop.log.entries == ["dispose \(next.serial)", "dispose \(early.serial)"], "newest build first")
        shop.request.close()
        shop.app.close()
        #expect(shop.log.entries.count == 2)
    }

    /// Threads build and resolve while one resets over and over: whichever of a build's store and a reset
    /// comes first, every instance is disposed exactly once — by the reset that takes it, or by the close
    /// that takes what is held at the end.
    @Test(arguments: [Kind.cached, .scoped, .matching, .custom], [1, 2, 3, 16])
    func resetsRacingBuildsDisposeEveryInstanceOnce(kind: Kind, threads: Int) async throws {
        let shop = try Shop(kind, pastTheCells: false, async: false)
        // Past the gate: the first build does not wait.
        shop.proceed.signal()
        let outcomes = await raceOnThreads(threads + 1, within: .seconds(30)) { thread -> Int in
            for _ in 0..<300 {
                if thread == threads {
                    shop.reset()
                } else if (try? shop.request.resolve(Widget.self)) == nil {
                    return 1
                }
            }
            return 0
        }
        let failures = try #require(outcomes, "the threads did not return")
        #expect(failures.allSatisfy { $0 == 0 }, "a resolve failed")
        shop.request.close()
        shop.app.close()
        let disposed = shop.log.entries
        #expect(Set(disposed).count == disposed.count, "an instance was disposed twice")
        #expect(disposed.count == shop.builds.value, "built \(shop.builds.value), disposed \(disposed.count)")
    }
}
