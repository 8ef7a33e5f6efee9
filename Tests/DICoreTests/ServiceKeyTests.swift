import DICore
import Synchronization
import Testing

fileprivate protocol Clock: Sendable {
    var now: Int { get }
}

fileprivate final class SystemClock: Clock {
    let label: String
    init(label: String = "system") { self.label = label }
    var now: Int { 1 }
}

fileprivate final class FixedClock: Clock {
    var now: Int { 42 }
}

fileprivate protocol Analytics: Sendable {}
fileprivate final class Telemetry: Analytics {}

/// Counts how often the default of `\.racingClock` ran; only `defaultSingletonIsBuiltOnceUnderRace` uses it.
fileprivate let racingBuilds = Counter()

extension ServiceKeys {
    fileprivate var clock: ServiceKey<any Clock> { .init(scope: .singleton) { _ in SystemClock() } }
    fileprivate var labelledClock: ServiceKey<SystemClock> {
        .init(scope: .singleton) { r in SystemClock(label: try r.resolve(String.self)) }
    }
    fileprivate var racingClock: ServiceKey<SystemClock> {
        .init(scope: .singleton) { _ in
            racingBuilds.increment()
            return SystemClock()
        }
    }
    fileprivate var freshClock: ServiceKey<SystemClock> { .init { _ in SystemClock() } }
    fileprivate var formatter: ServiceKey<Formatter> { .init { _ in Formatter() } }
    fileprivate var analytics: ServiceKey<any Analytics> { .required() }
    fileprivate var session: ServiceKey<SystemClock> { .required(scope: .singleton) }
    fileprivate var firstName: ServiceKey<String> { .init { _ in "first" } }
    fileprivate var secondName: ServiceKey<String> { .init { _ in "second" } }
    fileprivate var failing: ServiceKey<Int> { .init { _ in throw FactoryError(reason: "no int today") } }
}

/// The keypath registry (`ServiceKeys`, `resolve(\.key)`, `register(\.key)`).
@Suite(.timeLimit(.minutes(1))) struct ServiceKeyTests {
    @Test func keyTakesItsNameFromTheDeclaringProperty() {
        let key = ServiceKeys()[keyPath: \.clock]
        #expect(key.name == "clock")
        #expect(key.scope == .singleton)
        #expect(!key.isRequired)
        #expect(key.location.fileID == "DICoreTests/ServiceKeyTests.swift")
        #expect(ServiceKeys()[keyPath: \.analytics].isRequired)
        #expect(ServiceKeys()[keyPath: \.formatter].scope == .transient)
    }

    @Test func transientDefaultResolvesWithoutRegistration() throws {
        let app = Container(name: "app")
        let first = try app.resolve(\.freshClock)
        let second = try app.resolve(\.freshClock)
        #expect(first !== second)
        #expect(first.label == "system")
    }

    @Test func nonSendableTransientKeysWork() throws {
        let app = Container(name: "app")
        let formatter = try app.resolve(\.formatter)
        formatter.pattern = "dd"
        #expect(try app.resolve(\.formatter).pattern == "yyyy")
    }

    @Test func defaultSingletonIsOneInstancePerTree() throws {
        let app = Container(name: "app")
        let checkout = app.child(name: "checkout")
        let session = app.child(name: "session")
        let fromChild = try checkout.resolve(\.clock)
        #expect(try app.resolve(\.clock) as AnyObject === fromChild as AnyObject)
        #expect(try session.child(name: "deep").resolve(\.clock) as AnyObject === fromChild as AnyObject)

        let otherTree = Container(name: "other")
        #expect(try otherTree.resolve(\.clock) as AnyObject !== fromChild as AnyObject)
    }

    @Test func defaultSingletonTakesItsDependenciesFromTheRoot() throws {
        let app = Container(name: "app")
        try app.register(String.self) { _ in "root" }
        let checkout = app.child(name: "checkout")
        try checkout.register(String.self) { _ in "checkout" }
        // The child asks first; the default is still the root's, built with the root's String.
        #expect(try checkout.resolve(\.labelledClock).label == "root")
        #expect(try app.resolve(\.labelledClock).label == "root")
    }

    @Test func registerOverridesTheKeyForOneSubtree() throws {
        let app = Container(name: "app")
        let checkout = app.child(name: "checkout")
        let payment = checkout.child(name: "payment")
        let session = app.child(name: "session")
        try checkout.register(\.clock) { _ in FixedClock() }

        #expect(try checkout.resolve(\.clock).now == 42)
        #expect(try payment.resolve(\.clock).now == 42)
        #expect(try app.resolve(\.clock).now == 1)
        #expect(try session.resolve(\.clock).now == 1)
    }

    @Test func overrideKeepsTheKeysLifetime() throws {
        let app = Container(name: "app")
        try app.register(\.clock) { _ in FixedClock() }
        #expect(try app.resolve(\.clock) as AnyObject === app.resolve(\.clock) as AnyObject)

        try app.register(\.freshClock) { _ in SystemClock(label: "override") }
        #expect(try app.resolve(\.freshClock) !== app.resolve(\.freshClock))
        #expect(try app.resolve(\.freshClock).label == "override")
    }

    @Test func overrideCanChooseItsOwnLifetime() throws {
        let app = Container(name: "app")
        try app.register(\.freshClock, scope: .singleton) { _ in SystemClock(label: "kept") }
        #expect(try app.resolve(\.freshClock) === app.resolve(\.freshClock))
    }

    @Test func registeringInTheRootReplacesTheInstalledDefault() throws {
        let app = Container(name: "app")
        let child = app.child(name: "child")
        #expect(try child.resolve(\.clock).now == 1)
        try app.register(\.clock) { _ in FixedClock() }
        #expect(try child.resolve(\.clock).now == 42)
    }

    @Test func requiredKeyThatNobodyProvidesNamesTheKeyAndTheFix() throws {
        let app = Container(name: "app")
        let checkout = app.child(name: "checkout")
        let error = try #require(throws: ResolutionError.self) { try checkout.resolve(\.analytics) }
        #expect(error.code == .requiredKeyMissing)
        #expect(error.service == "\\.analytics")
        #expect(error.searchedContainers == ["checkout", "app"])
        let text = error.description
        #expect(text.contains("Cannot resolve \\.analytics"))
        #expect(text.contains(".required()"))
        #expect(text.contains("must provide it"))
        #expect(text.contains("\\.analytics (any Analytics) is declared"), "\(text)")
        #expect(text.contains("try container.register(\\.analytics)"))
        #expect(text.contains("DICoreTests/ServiceKeyTests.swift"))
    }

    /// A test container's lookup goes on through its base's tree: the error lists those containers too, and
    /// says where a provider serves one test and where every test.
    @Test func requiredKeyMissingFromATestContainerListsItsBaseChain() throws {
        let app = Container(name: "app")
        let test = Container.makeTestContainer(from: app.child(name: "feature"), name: "test")
        for asker in [test, test.child(name: "screen")] {
            let error = try #require(throws: ResolutionError.self) { try asker.resolve(\.analytics) }
            #expect(error.code == .requiredKeyMissing)
            #expect(error.searchedContainers == ancestryNames(asker) + ["feature", "app"])
            #expect(error.description.contains(
                "register it in \(asker.name) for this test alone, or in app for every test"
            ), "\(error)")
        }
        try app.register(\.analytics) { _ in Telemetry() }
        #expect(try test.resolve(\.analytics) is Telemetry)
    }

    private func ancestryNames(_ container: Container) -> [String] {
        container.parent.map { [container.name] + ancestryNames($0) } ?? [container.name]
    }

    @Test func requiredKeyProvidedByTheAppResolvesEverywhereBelow() throws {
        let app = Container(name: "app")
        try app.register(\.analytics) { _ in Telemetry() }
        #expect(try app.child(name: "checkout").resolve(\.analytics) is Telemetry)
    }

    @Test func requiredKeyDeclaredWithAScopeKeepsItsInstances() throws {
        let app = Container(name: "app")
        try app.register(\.session) { _ in SystemClock(label: "session") }
        #expect(try app.resolve(\.session) === app.resolve(\.session))
    }

    @Test func missingRequiredKeyInsideAFactoryShowsThePath() throws {
        let app = Container(name: "app")
        try app.register(Telemetry.self) { r in
            _ = try r.resolve(\.analytics)
            return Telemetry()
        }
        let error = try #require(throws: ResolutionError.self) { try app.resolve(Telemetry.self) }
        #expect(error.code == .requiredKeyMissing)
        #expect(error.description.contains("Telemetry → \\.analytics"))
    }

    @Test func keysOfTheSameTypeAreDistinctFromEachOtherAndFromTheType() throws {
        let app = Container(name: "app")
        try app.register(String.self) { _ in "by type" }
        #expect(try app.resolve(\.firstName) == "first")
        #expect(try app.resolve(\.secondName) == "second")
        try app.register(\.firstName) { _ in "overridden" }
        #expect(try app.resolve(\.firstName) == "overridden")
        #expect(try app.resolve(\.secondName) == "second")
        #expect(try app.resolve(String.self) == "by type")
        #expect(try app.resolveAll(String.self) == ["by type"])
    }

    /// A key and its type are two registrations. Asked for the one that is missing while the other is
    /// registered, the error says so and gives the call that connects them, which works.
    @Test func aKeyAndItsTypeEachPointToTheOther() throws {
        let app = Container(name: "app")
        try app.register((any Analytics).self, fileID: "App/Setup.swift", line: 4) { _ in Telemetry() }
        let missingKey = try #require(throws: ResolutionError.self) { try app.resolve(\.analytics) }
        #expect(missingKey.code == .requiredKeyMissing)
        #expect(missingKey.suggestions == ["any Analytics is registered by type in app (App/Setup.swift:4), which "
            + "\\.analytics, a key of its own, does not find: register the key instead, or make it resolve that "
            + "registration: try container.register(\\.analytics) { r in try r.resolve((any Analytics).self) }."])
        try app.register(\.analytics) { r in try r.resolve((any Analytics).self) }
        #expect(try app.resolve(\.analytics) is Telemetry)

        let shop = Container(name: "shop")
        try shop.register(\.clock, fileID: "App/Setup.swift", line: 9) { _ in FixedClock() }
        let missingType = try #require(throws: ResolutionError.self) { try shop.resolve((any Clock).self) }
        #expect(missingType.code == .notRegistered)
        #expect(missingType.description.contains("\\.clock provides any Clock in shop (App/Setup.swift:9), a key of "
            + "its own that a resolve by type does not find: resolve the key, try container.resolve(\\.clock)."),
            "\(missingType)")
        #expect(missingType.description.contains("fix:       resolve the key: try container.resolve(\\.clock)"))
        #expect(try shop.resolve(\.clock).now == 42)

        // A dependency asks by type: its way out registers the type as what the key provides, which also serves
        // an initializer's parameter.
        final class Stamper: Sendable {
            let clock: any Clock
            init(clock: any Clock) { self.clock = clock }
        }
        try shop.autoregister(Stamper.self, fileID: "App/Setup.swift", line: 12, initializer: Stamper.init)
        let dependency = try #require(throws: ResolutionError.self) { try shop.resolve(Stamper.self) }
        #expect(dependency.description.contains("fix:       in the factory of Stamper (App/Setup.swift:12), resolve the "
            + "key (try r.resolve(\\.clock)), or register the type as what the key provides: try "
            + "container.register((any Clock).self) { r in try r.resolve(\\.clock) }"), "\(dependency)")
        try shop.register((any Clock).self) { r in try r.resolve(\.clock) }
        #expect(try shop.resolve(Stamper.self).clock.now == 42)
    }

    @Test func equalKeyPathsWrittenInDifferentPlacesAreOneKey() throws {
        let app = Container(name: "app")
        try register(in: app)
        #expect(try app.resolve(\ServiceKeys.firstName) == "from a helper")
    }

    private func register(in container: Container) throws {
        let keyPath: ServiceKeyPath<String> = \.firstName
        try container.register(keyPath) { _ in "from a helper" }
    }

    @Test func nonOverridableKeyRegistrationRefusesShadowing() throws {
        let app = Container(name: "app")
        try app.register(\.clock, overridable: false) { _ in FixedClock() }
        let error = try #require(throws: RegistrationError.self) {
            try app.child(name: "checkout").register(\.clock) { _ in SystemClock() }
        }
        #expect(error.code == .alreadyRegistered)
        #expect(error.service == "\\.clock")
    }

    @Test func factoriesResolveKeysThroughTheirResolver() throws {
        let app = Container(name: "app")
        try app.register(Int.self) { r in try r.resolve(\.clock).now }
        let checkout = app.child(name: "checkout")
        try checkout.register(\.clock) { _ in FixedClock() }
        #expect(try app.resolve(Int.self) == 1)
        #expect(try checkout.resolve(Int.self) == 42)
    }

    @Test func failingDefaultNamesTheKeyInThePath() throws {
        let app = Container(name: "app")
        let error = try #require(throws: ResolutionError.self) { try app.resolve(\.failing) }
        #expect(error.code == .factoryFailed)
        #expect(error.service == "\\.failing")
        #expect(error.underlying as? FactoryError == FactoryError(reason: "no int today"))
    }

    @Test func closedContainerRefusesKeys() throws {
        let app = Container(name: "app")
        app.close()
        let error = try #require(throws: ResolutionError.self) { try app.resolve(\.clock) }
        #expect(error.code == .containerClosed)
    }

    @Test func defaultSingletonIsBuiltOnceUnderRace() async throws {
        // Each round starts two resolutions of a fresh tree's default at the same moment; a default
        // installed twice would build two instances in some round.
        let rounds = 200
        for _ in 0..<rounds {
            let app = Container(name: "app")
            let children = [app.child(name: "a"), app.child(name: "b")]
            let arrived = Counter()
            let ids = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
                for child in children {
                    group.addTask {
                        arrived.increment()
                        var spins = 0
                        while arrived.value < 2 && spins < 1_000_000 { spins += 1 }
                        return ObjectIdentifier(try child.resolve(\.racingClock))
                    }
                }
                return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
            }
            #expect(ids.count == 1)
        }
        #expect(racingBuilds.value == rounds)
    }
}
