import DICore
import Testing

@Suite struct AliasTests {
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

    @Test func aliasOfANamedRegistrationKeepsTheName() throws {
        let app = Container(name: "app")
        try app.register(RouterImpl.self, name: "main", scope: .singleton) { _ in RouterImpl() }
            .implements((any Router).self)
        #expect(try app.resolve((any Router).self, name: "main") === app.resolve(RouterImpl.self, name: "main"))
        #expect(!app.isRegistered((any Router).self, name: nil))
    }
}
