@testable import DITesting
import DICore
import Testing

/// `.override(_:name:_:)` of a key that nothing the test container resolves from registers replaces nothing:
/// the app's services never get it. The trait warns, names the registration probably meant, and still registers.
@Suite(.timeLimit(.minutes(1))) struct OverrideCheckTests {
    /// The app: a clock registered as the protocol, and a service that resolves it.
    static func app() throws -> Container {
        let app = Container(name: "app")
        try app.register((any Clock).self, scope: .singleton) { _ in SystemClock() }
        try app.register(Stamp.self) { r in Stamp(now: try r.resolve((any Clock).self).now) }
        return app
    }

    struct Stamp: Sendable { let now: Int }

    /// Applies `trait`'s configuration to a test container of `base`, capturing what it reports; returns the
    /// reports and what `body` returns in that container.
    static func apply<Result>(
        _ trait: IsolatedContainerTrait,
        to base: Container,
        _ body: (Container) throws -> Result
    ) async throws -> (reports: [String], result: Result) {
        let reports = Log()
        let result = try await FailureReporter.$injected.withValue(.capturing(reports.append)) {
            try await withTestContainer(from: base) { container in
                for configure in trait.configurations { try await configure(container) }
                return try body(container)
            }
        }
        return (reports.entries, result)
    }

    @Test func overridingTheConcreteTypeWhereTheAppRegistersTheProtocolWarnsAndNamesTheProtocol() async throws {
        let app = try Self.app()
        let (reports, stamp) = try await Self.apply(.override(SystemClock.self) { _ in SystemClock() }, to: app) {
            try $0.resolve(Stamp.self)
        }
        let warning = try #require(reports.first, "\(reports)")
        #expect(reports.count == 1)
        #expect(warning.hasPrefix("warning: .override(SystemClock.self) replaces nothing: no container the test "
            + "resolves from registers SystemClock (searched "), "\(warning)")
        #expect(warning.contains("app registers any Clock (DITestingTests/OverrideCheckTests.swift:11): to replace "
            + "that, override it: .override((any Clock).self) { … }."), "\(warning)")
        #expect(stamp.now == 1_000, "the app's service still gets the live clock")
    }

    @Test func followingTheAdviceReplacesTheClockWithoutAWarning() async throws {
        let app = try Self.app()
        let (reports, stamp) = try await Self.apply(.override((any Clock).self) { _ in FixedClock() }, to: app) {
            try $0.resolve(Stamp.self)
        }
        #expect(reports.isEmpty, "\(reports)")
        #expect(stamp.now == 42)
    }

    @Test func aNameTheAppDoesNotRegisterPointsToTheOneItDoes() async throws {
        let app = try Self.app()
        let trait = IsolatedContainerTrait.override((any Clock).self, name: "utc") { _ in FixedClock() }
        let (reports, _) = try await Self.apply(trait, to: app) { _ in () }
        #expect(reports.count == 1)
        #expect(reports.first?.contains(#".override((any Clock).self, name: "utc") replaces nothing"#) == true)
        #expect(reports.first?.contains("to replace that, override it: .override((any Clock).self) { … }.") == true,
                "\(reports)")
    }

    @Test func nothingCloseSaysWhereToLookAndStillRegisters() async throws {
        struct Feature: Sendable { let on: Bool }
        let app = try Self.app()
        let (reports, feature) = try await Self.apply(.override(Feature.self) { _ in Feature(on: true) }, to: app) {
            try $0.resolve(Feature.self)
        }
        #expect(reports.count == 1)
        #expect(reports.first?.contains("Override the key the app registers (print(app.graph().text()) lists them), "
            + "or, to add a service for this test, register it in .container { … }.") == true, "\(reports)")
        #expect(feature.on)
    }

    /// A service the app provides through a keypath-registry key is a registration of its own, which an
    /// override of the type does not replace: the warning names the key's override, which does.
    @Test func overridingTheTypeOfAKeyNamesTheKeysOverride() async throws {
        let app = Container(name: "app")
        try app.register(\.clock, fileID: "App/Setup.swift", line: 3) { _ in SystemClock() }
        let (reports, _) = try await Self.apply(.override((any Clock).self) { _ in FixedClock() }, to: app) { _ in () }
        #expect(reports.count == 1)
        #expect(reports.first?.contains("app provides it as the key \\.clock (App/Setup.swift:3): to replace that, "
            + "override the key: .override(\\.clock) { … }.") == true, "\(reports)")
        let (none, now) = try await Self.apply(.override(\.clock) { _ in FixedClock() }, to: app) {
            try $0.resolve(\.clock).now
        }
        #expect(none.isEmpty)
        #expect(now == FixedClock().now)
    }

    /// A registration's key includes its runtime arguments, so an override (which takes none) cannot replace a
    /// registration that takes some: the warning says so, and gives the registration that does.
    @Test func overridingAServiceThatTakesArgumentsSaysHowToReplaceIt() async throws {
        struct Receipt: Sendable { let order: String; let test: Bool }
        let app = try Self.app()
        try app.register(Receipt.self) { (_: any Resolver, order: String) in Receipt(order: order, test: false) }
        let (reports, _) = try await Self.apply(.override(Receipt.self) { _ in Receipt(order: "", test: true) },
                                                to: app) { _ in () }
        #expect(reports.count == 1)
        #expect(reports.first?.contains("app registers Receipt taking an argument (String) "
            + "(DITestingTests/OverrideCheckTests.swift:101), which an override, taking none, cannot replace: "
            + "register it with the same argument in the test container instead: .container { try "
            + "$0.register(Receipt.self) { (r: any Resolver, argument: String) in … } }.") == true, "\(reports)")
        // The advice, followed: the app's callers, which pass the argument, get the test's receipt.
        let advised = IsolatedContainerTrait.container { container in
            try container.register(Receipt.self) { (r: any Resolver, argument: String) in
                Receipt(order: argument, test: true)
            }
        }
        let (none, receipt) = try await Self.apply(advised, to: app) {
            try $0.resolve(Receipt.self, argument: "A-1")
        }
        #expect(none.isEmpty, "\(none)")
        #expect(receipt.test && receipt.order == "A-1")
    }

    /// What an outer trait registered, or an ancestor of the base, counts as something to replace.
    @Test func anOverrideOfWhatAnOuterTraitOrAnAncestorRegisteredDoesNotWarn() async throws {
        let app = try Self.app()
        let feature = app.child(name: "feature")
        let trait = IsolatedContainerTrait(configurations: [
            { try $0.register(Marker.self) { _ in Marker(value: 1) } }
        ] + IsolatedContainerTrait.override(Marker.self) { _ in Marker(value: 2) }.configurations
          + IsolatedContainerTrait.override((any Clock).self) { _ in FixedClock() }.configurations)
        let (reports, marker) = try await Self.apply(trait, to: feature) { try $0.resolve(Marker.self) }
        #expect(reports.isEmpty, "\(reports)")
        #expect(marker.value == 2)
    }

    /// Where an override is registered, diagnostics point at the trait, not at DITesting's source.
    @Test func theOverridesRegistrationIsLocatedAtTheTrait() async throws {
        let app = try Self.app()
        let (_, location) = try await Self.apply(.override((any Clock).self) { _ in FixedClock() }, to: app) {
            try #require($0.registrations.first { $0.serviceType == (any Clock).self }).location.description
        }
        #expect(location.hasPrefix("DITestingTests/OverrideCheckTests.swift:"), "\(location)")
    }
}
