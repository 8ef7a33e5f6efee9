import DICore
import Testing

@Suite struct AutoregisterTests {
    @Test func resolvesEveryInitializerParameterByType() throws {
        let app = Container(name: "app")
        try app.register((any Logger).self, scope: .singleton) { _ in ConsoleLogger(label: "auto") }
        try app.autoregister(Database.self, scope: .singleton, initializer: Database.init(logger:))
        try app.autoregister(Repository.self, initializer: Repository.init(database:))
        let repository = try app.resolve(Repository.self)
        #expect(repository.database.logger.label == "auto")
        #expect(try app.resolve(Database.self) === repository.database)
    }

    @Test func missingParameterNamesThePath() throws {
        let app = Container(name: "app")
        try app.autoregister(Repository.self, initializer: Repository.init(database:))
        let error = try #require(throws: ResolutionError.self) { try app.resolve(Repository.self) }
        #expect(error.code == .notRegistered)
        #expect(error.path.map(\.description) == ["Repository", "Database"])
    }

    @Test func initializersWithSeveralParameters() throws {
        struct Pair: Sendable {
            let number: Int
            let text: String
        }
        let app = Container(name: "app")
        try app.register(Int.self) { _ in 3 }
        try app.register(String.self) { _ in "three" }
        try app.autoregister(Pair.self) { (number: Int, text: String) in Pair(number: number, text: text) }
        let pair = try app.resolve(Pair.self)
        #expect(pair.number == 3 && pair.text == "three")
    }
}

@Suite struct RegistrationInspectionTests {
    @Test func autoregisterRecordsItsParameterTypesAsDependencies() throws {
        struct Pair: Sendable {
            let number: Int
            let text: String
        }
        let app = Container(name: "app")
        try app.autoregister(Pair.self) { (number: Int, text: String) in Pair(number: number, text: text) }
        try app.register(Int.self) { _ in 1 }
        let infos = app.registrations
        #expect(infos.map(\.displayName) == ["Pair", "Int"])
        #expect(infos[0].dependencies == [Dependency(Int.self), Dependency(String.self)])
        #expect(infos[1].dependencies.isEmpty)
        #expect(infos[0].location.fileID == "DICoreTests/AutoregisterTests.swift")
    }

    @Test func registrationsListsOnlyTheContainersOwn() throws {
        let app = Container(name: "app")
        try app.register(Int.self) { _ in 1 }
        let child = app.child(name: "child")
        try child.register(String.self, name: "s") { _ in "" }
        #expect(child.registrations.map(\.displayName) == ["String \"s\""])
        #expect(child.registrations.first?.container == "child")
    }
}
