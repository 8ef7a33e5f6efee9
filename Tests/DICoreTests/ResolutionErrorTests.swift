import DICore
import Testing

/// Every thrown error says what was asked, the path from the top-level request, each container
/// searched, where each registration on the path was made, and close matches.
@Suite(.timeLimit(.minutes(1))) struct ResolutionErrorTests {
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
        #expect(error.path.map(\.description) == ["Screen", "Repository", "Database", "any Logger \"primary\""])
        #expect(error.path.map(\.container) == ["checkout", "app", "app", "app"])
        let text = error.description
        #expect(text.contains("Screen → Repository → Database → any Logger \"primary\""))
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
        #expect(error.suggestions.contains { $0.contains(".implements((any Logger).self)") })
        // The condition names the protocol as a conformance does: `Logger`, not `any Logger`.
        #expect(error.description.contains("fix:       if ConsoleLogger conforms to Logger, add "
            + ".implements((any Logger).self) to its registration at DICoreTests/ResolutionErrorTests.swift:"),
            "\(error)")
    }

    /// Asked for the concrete type where the protocol is registered: the advice is a condition on what the
    /// registration holds (a protocol cannot conform to a class), and following it works.
    @Test func suggestsExposingAProtocolRegistrationAsTheConcreteTypeAskedFor() throws {
        let app = Container(name: "app")
        let registration = try app.register((any Logger).self, scope: .singleton) { _ in ConsoleLogger() }
        let error = try #require(throws: ResolutionError.self) { try app.resolve(ConsoleLogger.self) }
        let advice = "if any Logger always holds a ConsoleLogger, expose it with .implements(ConsoleLogger.self)"
        #expect(error.suggestions.contains { $0.contains(advice) }, "\(error)")
        #expect(!error.description.contains("conforms to ConsoleLogger"), "\(error)")
        #expect(error.description.contains("fix:       if any Logger always holds a ConsoleLogger, add "
            + ".implements(ConsoleLogger.self)"), "\(error)")
        try registration.implements(ConsoleLogger.self)
        #expect(try app.resolve(ConsoleLogger.self) === app.resolve((any Logger).self) as? ConsoleLogger)
    }

    @Test func suggestsASubclassForAClassAndNothingForAnUnrelatableValueType() throws {
        class Store {}
        final class FileStore: Store {}
        struct Point: Sendable {}
        struct PointValue: Sendable {}
        let app = Container(name: "app")
        try app.register(FileStore.self) { _ in FileStore() }
        try app.register(PointValue.self) { _ in PointValue() }
        let store = try #require(throws: ResolutionError.self) { try app.resolve(Store.self) }
        #expect(store.suggestions.contains { $0.contains("if FileStore is a subclass of Store, expose it with ") },
                "\(store)")
        // A struct is only ever itself: no `.implements` can make a PointValue a Point.
        let point = try #require(throws: ResolutionError.self) { try app.resolve(Point.self) }
        #expect(!point.description.contains(".implements"), "\(point)")
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
        #expect(error.message == "Cannot resolve Int: app is closed. It was closed with close(); resolve from a "
            + "container that is still open (a child made after close() is closed too).")
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

    // MARK: The way out follows the likeliest match

    @Test func typoListsTheClosestNameFirstAndTheFixPassesIt() throws {
        let app = Container(name: "app")
        for name in ["audit", "replica", "secondary", "primary", "archive"] {
            try app.register(Database.self, name: name) { _ in Database(logger: ConsoleLogger()) }
        }
        try app.register(Database.self) { _ in Database(logger: ConsoleLogger()) }
        let error = try #require(throws: ResolutionError.self) { try app.resolve(Database.self, name: "primray") }
        #expect(error.code == .notRegistered)
        let first = try #require(error.suggestions.first)
        #expect(first.hasPrefix("Database \"primary\" is registered in app"))
        #expect(first.contains("Did you mean \"primary\"?"))
        #expect(error.suggestions.filter { $0.contains("Did you mean") }.count == 1)
        let fix = try #require(error.description.split(separator: "\n").first { $0.contains("fix:") })
        #expect(fix.contains("pass name: \"primary\""))
        #expect(fix.contains("resolve(Database.self, name: \"primary\")"))
        #expect(!fix.contains("register"))
    }

    @Test func unrelatedNamesKeepTheRegisterFix() throws {
        let app = Container(name: "app")
        try app.register(Database.self, name: "primary") { _ in Database(logger: ConsoleLogger()) }
        try app.register(Database.self, name: "replica") { _ in Database(logger: ConsoleLogger()) }
        let error = try #require(throws: ResolutionError.self) { try app.resolve(Database.self, name: "audit") }
        #expect(!error.suggestions.contains { $0.contains("Did you mean") })
        #expect(error.description.contains("fix:       register it in app or an ancestor"))
        #expect(error.description.contains("name: \"audit\""))
    }

    @Test func theOnlyNamedRegistrationDrivesTheFixOfAnUnnamedRequest() throws {
        let app = Container(name: "app")
        try app.register(Database.self, name: "primary") { _ in Database(logger: ConsoleLogger()) }
        let error = try #require(throws: ResolutionError.self) { try app.resolve(Database.self) }
        #expect(error.description.contains("fix:       pass name: \"primary\""))
    }

    /// A dependency is asked for by its dependent's factory: the fix changes the request there (or registers
    /// what it asks for), not at a `container.resolve` the caller never wrote.
    @Test func aDependencysFixPointsAtTheFactoryThatAskedForIt() throws {
        let app = Container(name: "app")
        let line = #line + 1
        try app.register(Repository.self) { r in Repository(database: try r.resolve(Database.self, name: "primary")) }
        try app.register(Database.self) { _ in Database(logger: ConsoleLogger()) }
        let unnamed = try #require(throws: ResolutionError.self) { try app.resolve(Repository.self) }
        #expect(unnamed.description.contains(
            "fix:       in the factory of Repository (DICoreTests/ResolutionErrorTests.swift:\(line)), resolve it "
                + "without a name, or register Database \"primary\" in app or an ancestor"
        ), "\(unnamed)")

        let other = Container(name: "other")
        try other.register(Database.self, name: "primary") { _ in Database(logger: ConsoleLogger()) }
        let otherLine = #line + 1
        try other.register(Repository.self) { r in Repository(database: try r.resolve(Database.self)) }
        let named = try #require(throws: ResolutionError.self) { try other.resolve(Repository.self) }
        #expect(named.description.contains(
            "fix:       in the factory of Repository (DICoreTests/ResolutionErrorTests.swift:\(otherLine)), resolve it "
                + "with name: \"primary\", or register Database without a name in other or an ancestor"
        ), "\(named)")
        // The request of the caller's own code keeps the fix that changes it.
        let direct = try #require(throws: ResolutionError.self) { try other.resolve(Database.self) }
        #expect(direct.description.contains("fix:       pass name: \"primary\": try container.resolve("), "\(direct)")
    }

    @Test func serviceWithArgumentsResolvedWithoutThemSaysItTakesArguments() async throws {
        struct Report: Sendable { let quarter: String }
        let app = Container(name: "app")
        let checkout = app.child(name: "checkout")
        try app.register(Report.self) { (_: any Resolver, quarter: String) in Report(quarter: quarter) }
        let error = try #require(throws: ResolutionError.self) { try checkout.resolve(Report.self) }
        #expect(error.code == .argumentMismatch)
        #expect(error.message.contains("without arguments"))
        #expect(error.message.contains("String"))
        let text = error.description
        #expect(text.contains("fix:       pass its argument: try container.resolve(Report.self, argument: <String>)"))
        #expect(!text.contains("register it"))
        // The same through the async entry point.
        await #expect(throws: ResolutionError.self) { try await checkout.resolveAsync(Report.self) }
        // And the right call works.
        #expect(try checkout.resolve(Report.self, argument: "Q3").quarter == "Q3")
    }

    @Test func wrongArgumentTypeNamesWhatTheRegistrationTakes() throws {
        struct Cell: Sendable { let title: String }
        let app = Container(name: "app")
        try app.register(Cell.self) { (_: any Resolver, title: String, row: Int) in Cell(title: "\(title)\(row)") }
        let error = try #require(throws: ResolutionError.self) { try app.resolve(Cell.self, argument: 3) }
        #expect(error.code == .argumentMismatch)
        #expect(error.message.contains("(String, Int)"))
        #expect(error.description.contains("fix:       pass its arguments: try container.resolve(Cell.self, arguments: <String>, <Int>)"))
    }

    @Test func pathRowSaysWhereAStepWasRegisteredAndWhereItWasBuilt() throws {
        let app = Container(name: "app")
        let checkout = app.child(name: "checkout")
        try app.register(ViewModel.self) { r in ViewModel(repository: try r.resolve(Repository.self)) }
        try app.register(Repository.self, scope: .singleton) { r in Repository(database: try r.resolve(Database.self)) }
        let error = try #require(throws: ResolutionError.self) { try checkout.resolve(ViewModel.self) }
        #expect(error.path.map(\.container) == ["checkout", "app", "app"])
        #expect(error.path.map(\.registeredIn) == ["app", "app", nil])
        let rows = error.description.split(separator: "\n")
        let viewModel = try #require(rows.first { $0.hasPrefix("    ViewModel") })
        #expect(viewModel.contains("built in checkout, registered in app"))
        let repository = try #require(rows.first { $0.hasPrefix("    Repository") })
        #expect(repository.contains("in app"))
        #expect(!repository.contains("registered in"))
    }

    @Test func suggestionsAreThoseOfTheMomentOfTheThrowAndKeepNoContainerAlive() throws {
        var app: Container? = Container(name: "app")
        weak let released = app
        for index in 0..<2_000 { try app?.register(Int.self, name: "n\(index)") { _ in index } }
        try app?.register(Int.self, name: "primary") { _ in 1 }
        let error = try #require(throws: ResolutionError.self) { try app?.resolve(Int.self, name: "primray") }
        // Registered after the throw: not part of what the error reports.
        try app?.register(Int.self, name: "primra") { _ in 2 }
        app = nil
        #expect(released == nil, "the error keeps the container alive")
        #expect(error.suggestions.first?.contains("Did you mean \"primary\"?") == true, "\(error.suggestions)")
        #expect(!error.description.contains("primra\""), "\(error)")
        #expect(error.searchedContainers == ["app"])
    }
}
