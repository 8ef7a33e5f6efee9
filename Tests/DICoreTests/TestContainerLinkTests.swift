import DICore
import DITestSupport
import Synchronization
import Testing

/// Logs its disposal under a label.
private final class Disposed: Disposable, Sendable {
    let label: String
    let log: Log
    let dependency: Disposed?

    init(_ label: String, log: Log, dependency: Disposed? = nil) {
        self.label = label
        self.log = log
        self.dependency = dependency
    }

    func dispose() { log.append("dispose \(label)") }
}

/// Something only a feature container registers.
private final class FeatureConfig: Sendable {}

/// An app singleton that needs `FeatureConfig`.
private final class ConfiguredDatabase: Sendable {
    init(config: FeatureConfig) {}
}

/// Keeps the resolver its factory was given.
private final class ResolverKeeper: Sendable {
    let resolver: any Resolver
    init(resolver: any Resolver) { self.resolver = resolver }
}

/// A test container made from a container below the app resolves the app's services as the base does: an
/// app singleton gets its dependencies as the app does (the test's own registrations first), never from the
/// containers between the app and the base. Built in a view of the test container per level; these tests
/// pin what a user sees of that.
@Suite(.timeLimit(.minutes(1))) struct TestContainerLinkTests {
    /// app: a singleton `Database` that logs through `Logger`, and an "app" `Logger`; feature, its child: a
    /// "feature" `Logger`.
    private func makeTree() throws -> (app: Container, feature: Container) {
        let app = Container(name: "app")
        try app.register(Database.self, scope: .singleton) { r in Database(logger: try r.resolve((any Logger).self)) }
        try app.register((any Logger).self) { _ in ConsoleLogger(label: "app") }
        let feature = app.child(name: "feature")
        try feature.register((any Logger).self) { _ in ConsoleLogger(label: "feature") }
        return (app, feature)
    }

    private func resolve<Service>(_ type: Service.Type, from container: Container, async: Bool) async throws
        -> Service
    {
        async ? try await container.resolveAsync(type) : try container.resolve(type)
    }

    @Test(arguments: [false, true])
    func anAncestorsSingletonGetsItsDependenciesAsTheAncestorDoes(async: Bool) async throws {
        let (_, feature) = try makeTree()
        #expect(try await resolve(Database.self, from: feature, async: async).logger.label == "app")
        let test = Container.makeTestContainer(from: feature, name: "test")
        #expect(try await resolve(Database.self, from: test, async: async).logger.label == "app")
        // What the base itself resolves is still the base's.
        #expect(try await resolve((any Logger).self, from: test, async: async).label == "feature")
        let screen = test.child(name: "screen")
        #expect(try await resolve(Database.self, from: screen, async: async).logger.label == "app")
    }

    @Test(arguments: [false, true])
    func theTestsOwnRegistrationsStillReachAnAncestorsSingleton(async: Bool) async throws {
        let (app, feature) = try makeTree()
        let test = Container.makeTestContainer(from: feature, name: "test")
        try test.register((any Logger).self) { _ in ConsoleLogger(label: "fake") }
        #expect(try await resolve(Database.self, from: test, async: async).logger.label == "fake")
        #expect(try app.resolve(Database.self).logger.label == "app")
    }

    /// The test fails where the app would: the app singleton needs what only the feature registers. The test
    /// used to pass, building the singleton with the feature's registration.
    @Test(arguments: [false, true])
    func aDependencyOnlyTheBaseRegistersFailsAsItDoesInTheApp(async: Bool) async throws {
        let app = Container(name: "app")
        try app.register(ConfiguredDatabase.self, scope: .singleton) { r in
            ConfiguredDatabase(config: try r.resolve(FeatureConfig.self))
        }
        let feature = app.child(name: "feature")
        try feature.register(FeatureConfig.self) { _ in FeatureConfig() }
        let inTheApp = try #require(throws: ResolutionError.self) {
            try feature.resolve(ConfiguredDatabase.self)
        }
        let test = Container.makeTestContainer(from: feature, name: "test")
        let error = await #expect(throws: ResolutionError.self) {
            try await resolve(ConfiguredDatabase.self, from: test, async: async)
        }
        let inTheTest = try #require(error)
        #expect(inTheTest.code == .notRegistered)
        #expect(inTheTest.code == inTheApp.code)
        let text = "\(inTheTest)"
        #expect(text.contains("FeatureConfig is registered in feature"), "\(text)")
        #expect(text.contains("which app cannot see"), "\(text)")
        #expect(text.contains("from feature to app, which app and feature both see"), "\(text)")
        #expect(text.contains("searched:  test → app"), "\(text)")
        // Registered in the test, it reaches the app's singleton, as any override does.
        try test.register(FeatureConfig.self) { _ in FeatureConfig() }
        _ = try await resolve(ConfiguredDatabase.self, from: test, async: async)
    }

    @Test func oneInstancePerTestWhicheverWayItIsReached() throws {
        let (app, feature) = try makeTree()
        try feature.register(Repository.self, scope: .singleton) { r in
            Repository(database: try r.resolve(Database.self))
        }
        try app.register(RouterImpl.self, scope: .singleton) { _ in RouterImpl() }.implements((any Router).self)
        let test = Container.makeTestContainer(from: feature, name: "test")
        let database = try test.resolve(Database.self)
        #expect(try test.resolve(Repository.self).database === database)
        #expect(try test.child(name: "screen").resolve(Database.self) === database)
        #expect(try app.resolve(Database.self) !== database)
        let router = try test.resolve((any Router).self)
        #expect(try test.resolve(RouterImpl.self) === router)
        #expect(try app.resolve(RouterImpl.self) !== router)
    }

    /// An alias registered in the app finds its target as the app does, not the feature's registration of the
    /// target key.
    @Test func anAncestorsAliasFindsItsTargetAsTheAncestorDoes() throws {
        let app = Container(name: "app")
        try app.register(ConsoleLogger.self, scope: .singleton) { _ in ConsoleLogger(label: "app") }
            .implements((any Logger).self)
        let feature = app.child(name: "feature")
        try feature.register(ConsoleLogger.self, scope: .singleton) { _ in ConsoleLogger(label: "feature") }
        #expect(try feature.resolve((any Logger).self).label == "app")
        let test = Container.makeTestContainer(from: feature, name: "test")
        #expect(try test.resolve((any Logger).self).label == "app")
        #expect(try test.resolve(ConsoleLogger.self).label == "feature")
    }

    /// Closing the test container disposes what it built from the base first, then what it built from the
    /// app, newest first in each: the order closing the feature, then the app, would dispose them in (not
    /// newest first over both).
    /// (`closeAsync()`, in DIScopes, is checked in `TestContainerLifetimeTests`.)
    @Test func closingDisposesTheBasesLevelBeforeTheAppsLevel() throws {
        let log = Log()
        let app = Container(name: "app")
        try app.register(Disposed.self, name: "first", scope: .singleton) { _ in Disposed("app first", log: log) }
        try app.register(Disposed.self, name: "second", scope: .singleton) { _ in Disposed("app second", log: log) }
        let feature = app.child(name: "feature")
        try feature.register(Disposed.self, name: "feature", scope: .singleton) { r in
            Disposed("feature", log: log, dependency: try r.resolve(Disposed.self, name: "second"))
        }
        let test = Container.makeTestContainer(from: feature, name: "test")
        _ = try test.resolve(Disposed.self, name: "feature")
        _ = try test.resolve(Disposed.self, name: "first")
        test.close()
        #expect(log.entries == ["dispose feature", "dispose app first", "dispose app second"])
        // Nothing of the tree's own.
        _ = try feature.resolve(Disposed.self, name: "feature")
        #expect(log.entries.count == 3)
    }

    @Test(arguments: [1, 2, 3, 16])
    func threadsBuildOneInstanceOfAnAncestorsSingleton(threads: Int) async throws {
        let builds = Counter()
        let app = Container(name: "app")
        try app.register((any Logger).self) { _ in ConsoleLogger(label: "app") }
        try app.register(Database.self, scope: .singleton) { r in
            builds.increment()
            return Database(logger: try r.resolve((any Logger).self))
        }
        let feature = app.child(name: "feature")
        try feature.register(Repository.self, scope: .singleton) { r in
            Repository(database: try r.resolve(Database.self))
        }
        let test = Container.makeTestContainer(from: feature, name: "test")
        let found = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for index in 0..<threads {
                group.addTask {
                    // Half ask for it directly, half through the feature's singleton.
                    index.isMultiple(of: 2) ? ObjectIdentifier(try test.resolve(Database.self))
                        : ObjectIdentifier(try test.resolve(Repository.self).database)
                }
            }
            return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }
        #expect(found.count == 1)
        #expect(builds.value == 1)
    }

    /// Two app singletons that need each other: a cycle, found in the test as in the app, synchronously and
    /// `async`, also when the test asks through a singleton of its base.
    @Test(arguments: [false, true], [false, true])
    func aCycleAtTheAppsLevelEndsInACycleError(async: Bool, throughTheBase: Bool) async throws {
        final class A: Sendable { init(_ b: Any) {} }
        final class B: Sendable { init(_ a: Any) {} }
        let app = Container(name: "app")
        try app.register(A.self, scope: .singleton) { r in A(try r.resolve(B.self)) }
        try app.register(B.self, scope: .singleton) { r in B(try r.resolve(A.self)) }
        let feature = app.child(name: "feature")
        try feature.register(Repository.self, scope: .singleton) { r in
            _ = try r.resolve(A.self)
            return Repository(database: Database(logger: ConsoleLogger()))
        }
        let test = Container.makeTestContainer(from: feature, name: "test")
        let error = await #expect(throws: ResolutionError.self) {
            if throughTheBase {
                _ = try await resolve(Repository.self, from: test, async: async)
            } else {
                _ = try await resolve(A.self, from: test, async: async)
            }
        }
        #expect(error?.code == .circularDependency)
    }

    /// An app singleton that keeps its resolver (a view of the test container) cannot resolve through it
    /// once the test has ended: refused as work that outlived its test, not a crash and not a live service.
    @Test func aResolverKeptByAnAppSingletonIsRefusedAfterTheTest() throws {
        let (app, feature) = try makeTree()
        try app.register(ResolverKeeper.self, scope: .singleton) { r in ResolverKeeper(resolver: r) }
        var reported: [String] = []
        let lock = Mutex<[String]>([])
        let test = Container.makeTestContainer(from: feature, name: "test") { service in
            lock.withLock { $0.append(service) }
        }
        let keeper = try test.resolve(ResolverKeeper.self)
        #expect(try keeper.resolver.resolve((any Logger).self).label == "app")
        test.close()
        let error = try #require(throws: ResolutionError.self) { try keeper.resolver.resolve((any Logger).self) }
        #expect(error.code == .containerClosed)
        #expect("\(error)".contains("It is a test container, closed when its test ended"), "\(error)")
        reported = lock.withLock { $0 }
        #expect(reported == ["any Logger"])
    }

    /// A test container made from a test container: the inner one's registrations are overrides at every level
    /// too, and the outer one's come before them.
    @Test func aTestContainerOfATestContainerKeepsTheInnerOverrides() throws {
        let (_, feature) = try makeTree()
        let inner = Container.makeTestContainer(from: feature, name: "inner")
        try inner.register((any Logger).self) { _ in ConsoleLogger(label: "inner") }
        let outer = Container.makeTestContainer(from: inner, name: "outer")
        #expect(try outer.resolve(Database.self).logger.label == "inner")
        let outerAgain = Container.makeTestContainer(from: inner, name: "outer again")
        try outerAgain.register((any Logger).self) { _ in ConsoleLogger(label: "outer") }
        #expect(try outerAgain.resolve(Database.self).logger.label == "outer")
        #expect(try inner.resolve(Database.self).logger.label == "inner")
    }

    /// A keypath default that an app singleton's factory installs is the test container's one default: the
    /// app singleton and the test get one instance.
    @Test func aKeyPathDefaultIsOnePerTestContainer() throws {
        let (app, feature) = try makeTree()
        try app.register(ClockUser.self, scope: .singleton) { r in ClockUser(clock: try r.resolve(\.testLinkClock)) }
        let test = Container.makeTestContainer(from: feature, name: "test")
        let clock = try test.resolve(ClockUser.self).clock
        #expect(try test.resolve(\.testLinkClock) === clock)
        #expect(try test.child(name: "screen").resolve(\.testLinkClock) === clock)
        #expect(try app.resolve(ClockUser.self).clock !== clock)
    }
}

/// A keypath default.
final class TestLinkClock: Sendable {}

/// An app singleton that uses the default.
final class ClockUser: Sendable {
    let clock: TestLinkClock
    init(clock: TestLinkClock) { self.clock = clock }
}

extension ServiceKeys {
    var testLinkClock: ServiceKey<TestLinkClock> { .init(scope: .singleton) { _ in TestLinkClock() } }
}

extension TestContainerLinkTests {
    /// Threads resolve app singletons from a test container made from a feature container (built in its view of
    /// the app's level) while another thread closes it: no hang, every resolve either returns an instance or
    /// is refused as closed, and every instance built is disposed exactly once. Run also under
    /// `swift test --sanitize=thread`.
    @Test(arguments: [1, 2, 3, 16])
    func closingWhileThreadsResolveThroughItsViews(threads: Int) async throws {
        for round in 0..<20 {
            let log = Log()
            let builds = Counter()
            let app = Container(name: "app")
            for name in ["a", "b", "c"] {
                try app.register(Disposed.self, name: name, scope: .singleton) { r in
                    // Counted once built: resolving the dependency may be refused first.
                    let dependency = name == "a" ? nil : try r.resolve(Disposed.self, name: "a")
                    return Disposed("\(name)\(builds.increment())", log: log, dependency: dependency)
                }
            }
            let test = Container.makeTestContainer(from: app.child(name: "feature"), name: "test")
            let refusedOtherwise = await withTaskGroup(of: Bool.self) { group in
                for index in 0..<threads {
                    group.addTask {
                        do {
                            _ = try test.resolve(Disposed.self, name: ["a", "b", "c"][index % 3])
                        } catch let error as ResolutionError {
                            return error.code != .containerClosed
                        } catch {
                            return true
                        }
                        return false
                    }
                }
                group.addTask {
                    test.close()
                    return false
                }
                return await group.contains(true)
            }
            #expect(!refusedOtherwise, "round \(round): a resolve failed other than as closed")
            let disposed = log.entries
            #expect(Set(disposed).count == disposed.count, "round \(round): an instance was disposed twice")
            #expect(disposed.count == builds.value, "round \(round): built \(builds.value), disposed \(disposed)")
        }
    }
}

/// A key the app must provide.
final class TestLinkAnalytics: Sendable {}

/// An app singleton that needs the key.
final class AnalyticsUser: Sendable {
    init(analytics: TestLinkAnalytics) {}
}

extension ServiceKeys {
    var testLinkAnalytics: ServiceKey<TestLinkAnalytics> { .required() }
}

extension TestContainerLinkTests {
    /// A `.required()` key that an app singleton needs, missing in a test made from a feature container: the
    /// error says to register it in the test container, or in the app for every test — not in the view of the
    /// app's level, which nobody can register in.
    @Test func aMissingRequiredKeyOfAnAppSingletonNamesTheTestContainer() throws {
        let (app, feature) = try makeTree()
        try app.register(AnalyticsUser.self, scope: .singleton) { r in
            AnalyticsUser(analytics: try r.resolve(\.testLinkAnalytics))
        }
        let test = Container.makeTestContainer(from: feature, name: "test")
        let error = try #require(throws: ResolutionError.self) { try test.resolve(AnalyticsUser.self) }
        #expect(error.code == .requiredKeyMissing)
        let text = "\(error)"
        #expect(text.contains("register it in test for this test alone, or in app for every test"), "\(text)")
        #expect(!text.contains("register it in test as app"), "\(text)")
        try test.register(\.testLinkAnalytics) { _ in TestLinkAnalytics() }
        _ = try test.resolve(AnalyticsUser.self)
    }
}
