import DICore
import DITestSupport
import Testing

/// Something with a label: the alias of `Tracked`.
private protocol Labelled: AnyObject, Sendable {
    var label: String { get }
}

/// Logs its disposal, for checking who disposes what, and in which order.
private final class Tracked: Labelled, Disposable, Sendable {
    let label: String
    let log: Log

    init(_ label: String, log: Log) {
        self.label = label
        self.log = log
    }

    func dispose() { log.append("dispose \(label)") }
}

/// The engine's test containers: a private copy of a base graph, made without copying registrations.
@Suite struct TestContainerTests {
    /// An app whose singleton `Database` depends on a transient `Logger`.
    private func makeApp() throws -> Container {
        let app = Container(name: "app")
        try app.register((any Logger).self) { _ in ConsoleLogger(label: "live") }
        try app.register(Database.self, scope: .singleton) { r in Database(logger: try r.resolve((any Logger).self)) }
        return app
    }

    @Test func resolvesWhatTheBaseRegistersAndWhatItRegistersLater() throws {
        let app = try makeApp()
        let test = Container.makeTestContainer(from: app, name: "test")
        #expect(try test.resolve((any Logger).self).label == "live")
        try app.register(Repository.self) { r in Repository(database: try r.resolve(Database.self)) }
        #expect(test.isRegistered(Repository.self))
        _ = try test.resolve(Repository.self)
    }

    @Test func buildsItsOwnSingletonAndLeavesTheBaseInstanceAlone() throws {
        let app = try makeApp()
        let before = try app.resolve(Database.self)
        let test = Container.makeTestContainer(from: app, name: "test")
        let own = try test.resolve(Database.self)
        #expect(own !== before)
        #expect(try test.resolve(Database.self) === own)
        #expect(try app.resolve(Database.self) === before)
        let other = Container.makeTestContainer(from: app, name: "other")
        #expect(try other.resolve(Database.self) !== own)
    }

    @Test func aTestBuildsNoInstanceForTheBase() throws {
        let app = try makeApp()
        let test = Container.makeTestContainer(from: app, name: "test")
        let own = try test.resolve(Database.self)
        #expect(try app.resolve(Database.self) !== own)
    }

    @Test func overridesReachTheDependenciesOfTheBaseSingletons() throws {
        let app = try makeApp()
        let test = Container.makeTestContainer(from: app, name: "test")
        try test.register((any Logger).self) { _ in ConsoleLogger(label: "fake") }
        #expect(try test.resolve(Database.self).logger.label == "fake")
        #expect(try app.resolve(Database.self).logger.label == "live")
        #expect(try app.resolve((any Logger).self).label == "live")
    }

    @Test func resolvesThroughTheBaseAncestors() throws {
        let root = Container(name: "root")
        try root.register(Database.self, scope: .singleton) { r in Database(logger: try r.resolve((any Logger).self)) }
        try root.register((any Logger).self) { _ in ConsoleLogger(label: "root") }
        let feature = root.child(name: "feature")
        try feature.register((any Logger).self) { _ in ConsoleLogger(label: "feature") }
        let test = Container.makeTestContainer(from: feature, name: "test")
        // The root's singleton gets its dependencies as the root does, in the test as from the feature: a
        // parent's singleton never captures a child's override.
        #expect(try feature.resolve(Database.self).logger.label == "root")
        #expect(try test.resolve(Database.self).logger.label == "root")
        #expect(try test.resolve((any Logger).self).label == "feature")
        #expect(try root.resolve(Database.self).logger.label == "root")
    }

    @Test func childrenOfATestContainerKeepTheNormalRules() throws {
        let app = try makeApp()
        let test = Container.makeTestContainer(from: app, name: "test")
        let screen = test.child(name: "screen")
        try screen.register((any Logger).self) { _ in ConsoleLogger(label: "screen") }
        // The singleton belongs to the test container: a child's override does not reach it.
        let database = try screen.resolve(Database.self)
        #expect(database.logger.label == "live")
        #expect(try test.resolve(Database.self) === database)
        #expect(try screen.resolve((any Logger).self).label == "screen")
        #expect(screen.context == .test)
    }

    @Test func closingDisposesItsOwnInstancesNewestFirstAndNothingOfTheBase() throws {
        let log = Log()
        let app = Container(name: "app")
        try app.register(Tracked.self, name: "first", scope: .singleton) { _ in Tracked("first", log: log) }
        try app.register(Tracked.self, name: "second", scope: .singleton) { _ in Tracked("second", log: log) }
        _ = try app.resolve(Tracked.self, name: "first")
        let test = Container.makeTestContainer(from: app, name: "test")
        _ = try test.resolve(Tracked.self, name: "first")
        _ = try test.resolve(Tracked.self, name: "second")
        test.close()
        #expect(log.entries == ["dispose second", "dispose first"])
        #expect(!app.isClosed)
        _ = try app.resolve(Tracked.self, name: "first")
        #expect(log.entries.count == 2)
    }

    @Test func makingOneCopiesNoRegistration() throws {
        let app = Container(name: "app")
        for index in 0..<1_000 {
            try app.register(Int.self, name: "n\(index)", scope: .singleton) { _ in index }
        }
        let test = Container.makeTestContainer(from: app, name: "test")
        #expect(test.registry.all.isEmpty)
        #expect(try test.resolve(Int.self, name: "n999") == 999)
    }

    @Test func resolveAllSeesTheBaseChain() throws {
        let app = Container(name: "app")
        try app.register(String.self, name: "a", scope: .singleton) { _ in "a" }
        try app.register(String.self, name: "b") { _ in "b" }
        let test = Container.makeTestContainer(from: app, name: "test")
        try test.register(String.self, name: "b") { _ in "test b" }
        #expect(try test.resolveAll(String.self).sorted() == ["a", "test b"])
    }

    @Test func keyPathKeysAreOverriddenPerTestContainer() throws {
        let app = Container(name: "app")
        let live = try app.resolve(\.testClock)
        let test = Container.makeTestContainer(from: app, name: "test")
        #expect(try test.resolve(\.testClock) !== live)
        try test.register(\.testClock) { _ in TestClock(label: "fake") }
        #expect(try test.resolve(\.testClock).label == "fake")
        #expect(try app.resolve(\.testClock) === live)
    }

    @Test func asyncSingletonsOfTheBaseAreBuiltAgain() async throws {
        let app = Container(name: "app")
        try app.registerAsync(Database.self, scope: .singleton) { r in
            Database(logger: try r.resolve((any Logger).self))
        }
        try app.register((any Logger).self) { _ in ConsoleLogger(label: "live") }
        let live = try await app.resolveAsync(Database.self)
        let test = Container.makeTestContainer(from: app, name: "test")
        try test.register((any Logger).self) { _ in ConsoleLogger(label: "fake") }
        let own = try await test.resolveAsync(Database.self)
        #expect(own !== live)
        #expect(own.logger.label == "fake")
        #expect(try await test.resolveAsync(Database.self) === own)
    }

    @Test func aBaseKeyThatIsNotOverridableCanStillBeReplacedInATest() throws {
        let app = Container(name: "app")
        try app.register(Int.self, overridable: false) { _ in 42 }
        let test = Container.makeTestContainer(from: app, name: "test")
        try test.register(Int.self) { _ in 7 }
        #expect(try test.resolve(Int.self) == 7)
        #expect(try app.resolve(Int.self) == 42)
    }

    @Test func reportsAResolveAfterItClosed() throws {
        let log = Log()
        let app = try makeApp()
        let test = Container.makeTestContainer(from: app, name: "test") { service in log.append(service) }
        let screen = test.child(name: "screen")
        test.close()
        #expect(throws: ResolutionError.self) { try test.resolve(Database.self) }
        #expect(throws: ResolutionError.self) { try screen.resolve((any Logger).self) }
        #expect(log.entries == ["Database", "any Logger"])
    }

    @Test func aMissingServiceNamesTheBaseChainAsSearched() throws {
        let app = Container(name: "app")
        let feature = app.child(name: "feature")
        let test = Container.makeTestContainer(from: feature, name: "test")
        let screen = test.child(name: "screen")
        let error = try #require(throws: ResolutionError.self) { try screen.resolve(Formatter.self) }
        #expect(error.searchedContainers == ["screen", "test", "feature", "app"])
    }

    @Test func theContextIsTestOnlyInsideTestContainers() throws {
        let app = Container(name: "app")
        let test = Container.makeTestContainer(from: app, name: "test")
        #expect(test.context == .test)
        #expect(app.context == ContainerContext.process)
        try app.register(String.self) { _ in "\(Container.context)" }
        #expect(try test.resolve(String.self) == "test")
        #expect(withContainer(test) { Container.context } == .test)
    }

    @Test func theEnvironmentNamesAContext() {
        #expect(ContainerContext.named { _ in "Preview" } == .preview)
        #expect(ContainerContext.named { _ in "test" } == .test)
        #expect(ContainerContext.named { _ in "elsewhere" } == nil)
        #expect(ContainerContext.named { _ in nil } == nil)
    }

    // MARK: A base that changes while the test container lives

    /// Re-registering a service in the base chain drops and disposes the test container's own instance of the
    /// replaced registration, as it does the base's: however often a long-lived base is re-registered, the test
    /// container keeps the instance of the registration that stands, not one per registration it saw. Asked
    /// from a child of the test container, of a base that is the registering container or its child, directly
    /// or through an alias, synchronously or `async`.
    @Test(arguments: [false, true], [false, true])
    func reRegisteringInTheBaseChainDropsTheTestContainersInstance(fromAChild: Bool, async: Bool) async throws {
        for throughAnAlias in [false, true] {
            let log = Log()
            let app = Container(name: "app")
            let test = Container.makeTestContainer(from: fromAChild ? app.child(name: "feature") : app, name: "test")
            let screen = test.child(name: "screen")
            var built: [Weak<Tracked>] = []
            for generation in 0..<1_000 {
                let make: @Sendable (any Resolver) -> Tracked = { _ in Tracked("\(generation)", log: log) }
                if async {
                    try app.registerAsync(Tracked.self, scope: .singleton, factory: make)
                        .implements((any Labelled).self)
                } else {
                    try app.register(Tracked.self, scope: .singleton, factory: make).implements((any Labelled).self)
                }
                let own: any Labelled = switch (async, throughAnAlias) {
                case (false, false): try screen.resolve(Tracked.self)
                case (false, true): try screen.resolve((any Labelled).self)
                case (true, false): try await screen.resolveAsync(Tracked.self)
                case (true, true): try await screen.resolveAsync((any Labelled).self)
                }
                guard own.label == "\(generation)" else {
                    Issue.record("generation \(generation) got \(own.label) (through an alias: \(throughAnAlias))")
                    return
                }
                built.append(Weak(try #require(own as? Tracked)))
            }
            let context = "through an alias: \(throughAnAlias)"
            let disposed = log.entries
            #expect(
                disposed.elementsEqual((0..<999).map { "dispose \($0)" }),
                "each disposed when replaced, \(context); disposed \(disposed.count): \(disposed.prefix(3))…"
            )
            #expect(built.dropLast().allSatisfy { $0.object == nil }, "a replaced instance is kept, \(context)")
            #expect(built.last?.object != nil)
            test.close()
            #expect(log.entries.count == 1_000, "the standing one is disposed with the test container, \(context)")
        }
    }

    /// A test container outlives its base's close: what it registered itself still resolves, and a lookup
    /// that reaches the closed base is refused with `containerClosed`, naming the base — not `notRegistered`
    /// with advice to register the service, and not `nil` or a shorter list. From the test container and its
    /// child, over the closed container and over its child, and from a test container made afterwards.
    @Test(arguments: [false, true])
    func aLookupThatReachesAClosedBaseIsRefusedNamingTheBase(overAChild: Bool) async throws {
        let app = try makeApp()
        let base = overAChild ? app.child(name: "feature") : app
        let test = Container.makeTestContainer(from: base, name: "test")
        try test.register(String.self) { _ in "own" }
        _ = try test.resolve(Database.self)
        app.close()
        let late = Container.makeTestContainer(from: base, name: "late")
        try late.register(String.self) { _ in "own" }
        let state = overAChild ? "feature's ancestor app is closed, and feature is closing with it" : "app is closed"
        for asker in [test, test.child(name: "screen"), late] {
            #expect(try asker.resolve(String.self) == "own")
            let refusals: [(String, () async throws -> Void)] = [
                ("resolve", { _ = try asker.resolve(Database.self) }),
                ("resolveAsync", { _ = try await asker.resolveAsync(Database.self) }),
                ("resolveIfRegistered", { _ = try asker.resolveIfRegistered(Formatter.self) }),
                ("resolveAll", { _ = try asker.resolveAll(String.self) }),
                ("an optional", { _ = try asker.resolve(Formatter?.self) }),
                ("a Lazy", { _ = try asker.resolve(Lazy<Database>.self).value }),
            ]
            for (call, refused) in refusals {
                let error = try await #require(throws: ResolutionError.self, "\(call) from \(asker.name)") {
                    try await refused()
                }
                #expect(error.code == .containerClosed, "\(call) from \(asker.name): \(error)")
                #expect(error.description.contains(", and \(state):"), "\(call) from \(asker.name): \(error)")
                #expect(error.description.contains("not looked up: app is closed"), "\(call): \(error)")
                #expect(error.message.hasSuffix(": app is closed. " + error.detail!), "headline: \(error.message)")
                #expect(!error.description.contains("register it"), "\(call) from \(asker.name): \(error)")
            }
        }
        let screen = test.child(name: "screen")
        let subject = try #require(throws: ResolutionError.self) { try screen.resolve(Database.self) }
        #expect(subject.description.contains("screen hangs below the test container test, made from \(base.name)"))
        #expect(!test.isClosed)
    }

    /// A closed base resolves nothing, not even what its open ancestors register, and neither does the test
    /// container made from it: it resolved the app's services through the closed feature before.
    @Test func aClosedBaseRefusesWhatItsOpenAncestorRegisters() async throws {
        let app = try makeApp()
        let feature = app.child(name: "feature")
        let test = Container.makeTestContainer(from: feature, name: "test")
        _ = try test.resolve(Database.self)
        feature.close()
        #expect(!app.isClosed)
        for (call, refused) in [
            ("resolve", { _ = try test.resolve(Database.self) }),
            ("resolveIfRegistered", { _ = try test.resolveIfRegistered((any Logger).self) }),
            ("an optional", { _ = try test.resolve((any Logger)?.self) }),
            ("resolveAll", { _ = try test.resolveAll((any Logger).self) }),
        ] as [(String, () throws -> Void)] {
            let error = try #require(throws: ResolutionError.self, "\(call)") { try refused() }
            #expect(error.code == .containerClosed, "\(call): \(error)")
            #expect(error.message.contains("test is a test container made from feature, and feature is closed"),
                    "\(call): \(error)")
        }
        let error = try await #require(throws: ResolutionError.self) { try await test.resolveAsync(Database.self) }
        #expect(error.code == .containerClosed)
        #expect(!test.isRegistered(Database.self))
        #expect(try app.resolve(Database.self).logger.label == "live", "the app is untouched")
    }

    /// A test container made from a test container resolves what the inner one registered itself while the
    /// inner one's base is closed: the inner one is open, and resolves its own registrations.
    @Test func aTestContainerOfATestContainerWhoseBaseClosedResolvesTheInnerOnesOwn() throws {
        let app = try makeApp()
        let inner = Container.makeTestContainer(from: app, name: "inner")
        try inner.register(String.self) { _ in "inner's own" }
        let outer = Container.makeTestContainer(from: inner, name: "outer")
        app.close()
        #expect(try inner.resolve(String.self) == "inner's own")
        #expect(try outer.resolve(String.self) == "inner's own")
        #expect(try outer.child(name: "screen").resolve(String.self) == "inner's own")
        let error = try #require(throws: ResolutionError.self) { try outer.resolve(Database.self) }
        #expect(error.code == .containerClosed, "\(error)")
        #expect(error.message.contains("outer is a test container made from inner, and inner resolves through app, "
            + "which is closed"), "\(error)")
    }

    /// Threads make test containers from the app, resolve its singleton from each and close it, while another
    /// thread registers the singleton again and again: the app lists and unlists test containers on every
    /// thread at once, and every instance built is disposed exactly once — by the registration that replaced
    /// its own, or by its test container's close. Made from the app, or from a child of it, whose test
    /// containers keep the app's instance in a view of the app's level. Run also under
    /// `swift test --sanitize=thread`.
    @Test(.timeLimit(.minutes(1)), arguments: [1, 2, 3, 16], [false, true])
    func testContainersComeAndGoWhileTheBaseIsRegisteredAgain(threads: Int, fromAChild: Bool) async throws {
        let (log, builds) = (Log(), Counter())
        let app = Container(name: "app")
        let base = fromAChild ? app.child(name: "feature") : app
        let register = { @Sendable in
            _ = try app.register(Tracked.self, scope: .singleton) { _ in Tracked("\(builds.increment())", log: log) }
        }
        try register()
        let outcomes = await registerAgain(register, whileThreads: threads) {
            let test = Container.makeTestContainer(from: base, name: "test")
            defer { test.close() }
            return (try? test.resolve(Tracked.self)) != nil
        }
        #expect(outcomes == Array(repeating: true, count: threads + 1), "a thread failed or hung")
        let disposed = log.entries
        #expect(Set(disposed).count == disposed.count, "an instance was disposed twice")
        #expect(disposed.count == builds.value, "built \(builds.value), disposed \(disposed.count)")
        #expect(base.testContainers.isEmpty, "a dropped test container is still listed")
    }

    @Test(.timeLimit(.minutes(1)))
    func buildsItsOwnSingletonOnceUnderConcurrentFirstAccess() async throws {
        let counter = Counter()
        let app = Container(name: "app")
        try app.register(Database.self, scope: .singleton) { r in
            counter.increment()
            return Database(logger: try r.resolve((any Logger).self))
        }
        try app.register((any Logger).self) { _ in ConsoleLogger() }
        let test = Container.makeTestContainer(from: app, name: "test")
        let identities = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<32 { group.addTask { ObjectIdentifier(try test.resolve(Database.self)) } }
            return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }
        #expect(identities.count == 1)
        #expect(counter.value == 1)
    }
}

final class TestClock: Sendable {
    let label: String
    init(label: String) { self.label = label }
}

extension ServiceKeys {
    var testClock: ServiceKey<TestClock> { .init(scope: .singleton) { _ in TestClock(label: "system") } }
}
