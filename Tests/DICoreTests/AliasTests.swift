import DICore
import Testing

@Suite(.timeLimit(.minutes(1))) struct AliasTests {
    @Test func singletonAliasesShareOneInstance() throws {
        let app = Container(name: "app")
        try app.register(RouterImpl.self, scope: .singleton) { _ in RouterImpl() }
            .implements((any Router).self)
            .implements((any DeeplinkHandler).self)
        let impl = try app.resolve(RouterImpl.self)
        let router = try app.resolve((any Router).self)
        let handler = try app.resolve((any DeeplinkHandler).self)
        #expect(router === impl)
        #expect(handler === impl)
    }

    @Test func transientAliasesBuildNewInstances() throws {
        let app = Container(name: "app")
        try app.register(RouterImpl.self) { _ in RouterImpl() }.implements((any Router).self)
        #expect(try app.resolve((any Router).self) !== app.resolve((any Router).self))
    }

    @Test func reRegisteringOneAliasReplacesOnlyThatAlias() throws {
        let app = Container(name: "app")
        try app.register(RouterImpl.self, scope: .singleton) { _ in RouterImpl() }
            .implements((any Router).self)
            .implements((any DeeplinkHandler).self)
        let other = RouterImpl()
        try app.register((any Router).self) { _ in other }
        #expect(try app.resolve((any Router).self) === other)
        #expect(try app.resolve((any DeeplinkHandler).self) === app.resolve(RouterImpl.self))
    }

    @Test func nonConformingAliasIsATypeMismatchNamingBothTypes() throws {
        let app = Container(name: "app")
        try app.register(ConsoleLogger.self) { _ in ConsoleLogger() }.implements((any Router).self)
        let error = try #require(throws: ResolutionError.self) { try app.resolve((any Router).self) }
        #expect(error.code == .typeMismatch)
        #expect(error.description.contains("ConsoleLogger"))
        #expect(error.description.contains("Router"))
    }

    class Vehicle {}
    final class Bicycle: Vehicle {}
    final class Kite {}

    /// The way out names what must change, as Swift spells it: the instance's type made to conform to the
    /// protocol (`Router`, not `any Router`) or to subclass the class; for a value type, the alias removed.
    @Test(arguments: [
        ("protocol", "Make ConsoleLogger conform to Router, or remove .implements((any Router).self) at "),
        ("class", "Make Kite a subclass of Vehicle, or remove .implements(Vehicle.self) at "),
        ("struct", "Only Int itself is Int: remove .implements(Int.self) at "),
        ("existential target", "a ConsoleLogger, does not conform. Make ConsoleLogger conform to Router, or "),
    ])
    func nonConformingAliasSaysWhatToChange(alias: String, advice: String) throws {
        let app = Container(name: "app")
        let error: ResolutionError
        switch alias {
        case "protocol":
            try app.register(ConsoleLogger.self) { _ in ConsoleLogger() }.implements((any Router).self)
            error = try #require(throws: ResolutionError.self) { try app.resolve((any Router).self) }
        case "class":
            try app.register(Kite.self) { _ in Kite() }.implements(Vehicle.self)
            error = try #require(throws: ResolutionError.self) { try app.resolve(Vehicle.self) }
        case "struct":
            try app.register(String.self) { _ in "" }.implements(Int.self)
            error = try #require(throws: ResolutionError.self) { try app.resolve(Int.self) }
        default:
            // Registered as a protocol: the instance's own type is the one to change.
            try app.register((any Logger).self) { _ in ConsoleLogger() }.implements((any Router).self)
            error = try #require(throws: ResolutionError.self) { try app.resolve((any Router).self) }
        }
        #expect(error.code == .typeMismatch)
        #expect(error.message.contains(advice), "\(error)")
        #expect(error.message.contains("AliasTests.swift:"), "\(error)")
        // A subclass still resolves through the class alias.
        if alias == "class" {
            try app.register(Bicycle.self) { _ in Bicycle() }.implements(Vehicle.self)
            #expect(try app.resolve(Vehicle.self) is Bicycle)
        }
    }

    @Test func aliasOfANamedRegistrationKeepsTheName() throws {
        let app = Container(name: "app")
        try app.register(RouterImpl.self, name: "main", scope: .singleton) { _ in RouterImpl() }
            .implements((any Router).self)
        #expect(try app.resolve((any Router).self, name: "main") === app.resolve(RouterImpl.self, name: "main"))
        #expect(!app.isRegistered((any Router).self, name: nil))
    }

    protocol Marker: AnyObject, Sendable {}
    final class Handle: Marker, Disposable {
        let generation: Int
        private let disposed = Counter()
        init(_ generation: Int) { self.generation = generation }
        func dispose() { disposed.increment() }
        var isDisposed: Bool { disposed.value > 0 }
    }

    @Test func reRegisteringTheTargetMovesTheAliasToTheNewRegistration() throws {
        let app = Container(name: "app")
        try app.register(Handle.self, scope: .singleton) { _ in Handle(1) }.implements((any Marker).self)
        let old = try #require(try app.resolve((any Marker).self) as? Handle)
        try app.register(Handle.self, scope: .singleton) { _ in Handle(2) }
        #expect(old.isDisposed)
        let new = try #require(try app.resolve((any Marker).self) as? Handle)
        #expect(new.generation == 2)
        #expect(!new.isDisposed)
        #expect(new === (try app.resolve(Handle.self)))
    }

    @Test func anAliasFollowsEveryOneOfManyReRegistrations() throws {
        let app = Container(name: "app")
        try app.register(Handle.self, scope: .singleton) { _ in Handle(0) }.implements((any Marker).self)
        for generation in 1...1_000 {
            try app.register(Handle.self, scope: .singleton) { _ in Handle(generation) }
            let handle = try #require(try app.resolve((any Marker).self) as? Handle)
            #expect(handle.generation == generation && !handle.isDisposed)
        }
    }

    @Test func anAliasInAParentIgnoresAChildsOverrideOfTheTarget() throws {
        let app = Container(name: "app")
        try app.register(Handle.self, scope: .singleton) { _ in Handle(1) }.implements((any Marker).self)
        let child = app.child(name: "child")
        try child.register(Handle.self, scope: .singleton) { _ in Handle(2) }
        #expect((try child.resolve((any Marker).self) as? Handle)?.generation == 1)
    }

    @Test func anAsyncAliasFollowsReRegistrationToo() async throws {
        let app = Container(name: "app")
        try app.registerAsync(Handle.self, scope: .singleton) { _ in Handle(1) }.implements((any Marker).self)
        let old = try #require(try await app.resolveAsync((any Marker).self) as? Handle)
        try app.registerAsync(Handle.self, scope: .singleton) { _ in Handle(2) }
        let new = try #require(try await app.resolveAsync((any Marker).self) as? Handle)
        #expect(old.isDisposed && new.generation == 2 && !new.isDisposed)
    }

    /// Found by the randomized lifetime model: a synchronous resolve through an alias handed out an async
    /// service once it was built, while the same request without the alias throws.
    @Test func anAliasOfABuiltAsyncServiceAsksForResolveAsyncLikeTheServiceItself() async throws {
        let app = Container(name: "app")
        try app.registerAsync(Handle.self, scope: .singleton) { _ in Handle(1) }.implements((any Marker).self)
        _ = try await app.resolveAsync(Handle.self)
        let direct = try #require(throws: ResolutionError.self) { try app.resolve(Handle.self) }
        let aliased = try #require(throws: ResolutionError.self) { try app.resolve((any Marker).self) }
        #expect(direct.code == .asyncResolutionRequired)
        #expect(aliased.code == .asyncResolutionRequired)
        #expect(aliased.description.contains("registerAsync"))
    }
}
