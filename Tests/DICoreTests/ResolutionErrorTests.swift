import DICore
import Testing

/// DESIGN §4: every thrown error says what was asked, the path from the top-level request, each container
/// searched, where each registration on the path was made, and close matches.
@Suite struct ResolutionErrorTests {
    final class Screen: Sendable { init(_ repository: Repository) {} }

    @Test func missingDependencyNamesPathContainersAndLocations() throws {
        let app = Container(name: "app")
        let checkout = app.child(name: "checkout")
        try checkout.register(Screen.self) { r in Screen(try r.resolve(Repository.self)) }
        try app.register(Repository.self, scope: .singleton) { r in Repository(database: try r.resolve(Database.self)) }
        try app.register(Database.self, scope: .singleton) { r in
            Database(logger: try r.resolve((any Logger).self, name: "primary"))
        }
        try app.register((any Logger).self) { _ in ConsoleLogger() }

        let error = try #require(throws: ResolutionError.self) { try checkout.resolve(Screen.self) }
        #expect(error.code == .notRegistered)
        #expect(error.path.map(\.description) == ["Screen", "Repository", "Database", "Logger \"primary\""])
        #expect(error.path.map(\.container) == ["checkout", "app", "app", "app"])
        let text = error.description
        #expect(text.contains("Screen → Repository → Database → Logger \"primary\""))
        #expect(text.contains("searched:  app"))
        #expect(text.contains("DICoreTests/ResolutionErrorTests.swift:"))
        #expect(text.contains("registered without a name in app"))
        #expect(text.contains("fix:"))
    }

    @Test func searchedContainersListTheWholeAncestry() throws {
        let app = Container(name: "app")
        let screen = app.child(name: "checkout").child(name: "payment")
        let error = try #require(throws: ResolutionError.self) { try screen.resolve(Int.self) }
        #expect(error.searchedContainers == ["payment", "checkout", "app"])
        #expect(error.description.contains("searched:  payment → checkout → app"))
    }

    @Test func suggestsOtherNamesAndTypos() throws {
        let app = Container(name: "app")
        try app.register(Database.self, name: "primary") { _ in Database(logger: ConsoleLogger()) }
        let unnamed = try #require(throws: ResolutionError.self) { try app.resolve(Database.self) }
        #expect(unnamed.suggestions.contains { $0.contains("name: \"primary\"") })
        let typo = try #require(throws: ResolutionError.self) { try app.resolve(Database.self, name: "primray") }
        #expect(typo.suggestions.contains { $0.contains("Did you mean \"primary\"?") })
    }

    @Test func suggestsARegistrationInAContainerThatIsNotVisible() throws {
        let app = Container(name: "app")
        let checkout = app.child(name: "checkout")
        let session = app.child(name: "session")
        try session.register(Double.self) { _ in 1 }
        let error = try #require(throws: ResolutionError.self) { try checkout.resolve(Double.self) }
        #expect(error.suggestions.contains { $0.contains("session") && $0.contains("cannot see") })
    }

    @Test func suggestsAConformingLookingType() throws {
        let app = Container(name: "app")
        try app.register(ConsoleLogger.self) { _ in ConsoleLogger() }
        let error = try #require(throws: ResolutionError.self) { try app.resolve((any Logger).self) }
        #expect(error.suggestions.contains { $0.contains(".implements(Logger.self)") })
    }

    @Test func factoryErrorIsWrappedAtTheStepThatThrew() throws {
        let app = Container(name: "app")
        try app.register(Database.self) { _ in throw FactoryError(reason: "no disk") }
        try app.register(Repository.self) { r in Repository(database: try r.resolve(Database.self)) }
        let error = try #require(throws: ResolutionError.self) { try app.resolve(Repository.self) }
        #expect(error.code == .factoryFailed)
        #expect(error.path.map(\.description) == ["Repository", "Database"])
        #expect((error.underlying as? FactoryError)?.reason == "no disk")
        #expect(error.description.contains("no disk"))
    }

    @Test func closedContainerRefusesToResolveAndRegister() throws {
        let app = Container(name: "app")
        try app.register(Int.self, scope: .singleton) { _ in 1 }
        #expect(try app.resolve(Int.self) == 1)
        app.close()
        let error = try #require(throws: ResolutionError.self) { try app.resolve(Int.self) }
        #expect(error.code == .containerClosed)
        #expect(error.description.contains("close()"))
        let registration = try #require(throws: RegistrationError.self) { try app.register(String.self) { _ in "" } }
        #expect(registration.code == .containerClosed)
    }

    @Test func closingAParentClosesItsChildren() throws {
        let app = Container(name: "app")
        let child = app.child(name: "child")
        try app.register(Int.self) { _ in 1 }
        app.close()
        #expect(child.isClosed)
        #expect(throws: ResolutionError.self) { try child.resolve(Int.self) }
    }

    @Test func disposableSingletonsAreDisposedNewestFirstOnClose() throws {
        final class Resource: Disposable, Sendable {
            let name: String
            let log: Log
            init(_ name: String, log: Log) { self.name = name; self.log = log }
            func dispose() { log.append(name) }
        }
        let log = Log()
        let app = Container(name: "app")
        try app.register(Resource.self, name: "first", scope: .singleton) { _ in Resource("first", log: log) }
        try app.register(Resource.self, name: "second", scope: .singleton) { _ in Resource("second", log: log) }
        _ = try app.resolve(Resource.self, name: "first")
        _ = try app.resolve(Resource.self, name: "second")
        app.close()
        app.close()
        #expect(log.entries == ["second", "first"])
    }
}
