import DICore
import Testing

/// What a report is used as elsewhere: the alias in the tests of `.implements`.
protocol Document: Sendable {
    var quarter: String { get }
}

@Suite struct ArgumentTests {
    struct Report: Document {
        let quarter: String
        let page: Int
    }

    @Test func oneArgument() throws {
        let app = Container(name: "app")
        try app.register(Report.self) { (_: any Resolver, quarter: String) in Report(quarter: quarter, page: 1) }
        #expect(try app.resolve(Report.self, argument: "2026-Q3").quarter == "2026-Q3")
    }

    /// An alias is resolved without arguments, so `.implements` of a registration that takes them is refused,
    /// with advice that compiles and works; the registration itself is kept.
    @Test func anAliasOfARegistrationWithArgumentsIsRefused() throws {
        let app = Container(name: "app")
        let one = try app.register(Report.self, fileID: "App/Reports.swift", line: 3) {
            (_: any Resolver, quarter: String) in Report(quarter: quarter, page: 1)
        }
        let error = try #require(throws: RegistrationError.self) {
            try one.implements((any Document).self, fileID: "App/Reports.swift", line: 4)
        }
        #expect(error.code == .typeMismatch)
        #expect(error.existing?.description == "App/Reports.swift:3")
        #expect(error.description == "RegistrationError.typeMismatch: Cannot expose Report as any Document at "
            + "App/Reports.swift:4: Report takes runtime arguments (String), registered at App/Reports.swift:3, and "
            + "an alias is resolved without them, so every resolve of any Document would fail. Register "
            + "(any Document).self with the same argument, building Report in its factory — try "
            + "container.register((any Document).self) { (r: any Resolver, argument: String) in … } — or resolve "
            + "Report with its argument where you need any Document.")
        #expect(!app.isRegistered((any Document).self))
        #expect(try app.resolve(Report.self, argument: "Q2").quarter == "Q2")
        // The advice.
        try app.register((any Document).self) { (r: any Resolver, argument: String) in
            try r.resolve(Report.self, argument: argument)
        }
        #expect(try app.resolve((any Document).self, argument: "Q3").quarter == "Q3")

        let named = try app.register(Report.self, name: "paged") { (_: any Resolver, quarter: String, page: Int) in
            Report(quarter: quarter, page: page)
        }
        let twoArguments = try #require(throws: RegistrationError.self) { try named.implements((any Document).self) }
        #expect(twoArguments.description.contains(
            #"try container.register((any Document).self, name: "paged") { (r: any Resolver, a: String, b: Int) in"#
        ), "\(twoArguments)")
        #expect(twoArguments.description.contains("with its arguments"))
    }

    @Test func severalArguments() throws {
        let app = Container(name: "app")
        try app.register(Report.self) { (_: any Resolver, quarter: String, page: Int) in
            Report(quarter: quarter, page: page)
        }
        let report = try app.resolve(Report.self, arguments: "Q1", 4)
        #expect(report.quarter == "Q1" && report.page == 4)
    }

    @Test func wrongArgumentTypeIsAClearError() throws {
        let app = Container(name: "app")
        try app.register(Report.self) { (_: any Resolver, quarter: String) in Report(quarter: quarter, page: 1) }
        let error = try #require(throws: ResolutionError.self) { try app.resolve(Report.self, argument: 2026) }
        #expect(error.code == .argumentMismatch)
        #expect(error.description.contains(
            "It was called with an argument (Int), but the registration at DICoreTests/ArgumentTests.swift:"
        ), "\(error)")
        #expect(error.description.contains("takes an argument (String)"), "\(error)")
        // The path ends at the registration that takes other arguments, not at "not found".
        #expect(error.path.last?.location?.fileID == "DICoreTests/ArgumentTests.swift", "\(error)")
        #expect(!error.description.contains("not found"), "\(error)")
    }

    @Test func wrongArgumentCountIsAClearError() throws {
        let app = Container(name: "app")
        try app.register(Report.self) { (_: any Resolver, quarter: String) in Report(quarter: quarter, page: 1) }
        let error = try #require(throws: ResolutionError.self) { try app.resolve(Report.self, arguments: "Q1", 2) }
        #expect(error.code == .argumentMismatch)
        #expect(error.description.contains("It was called with arguments (String, Int), but"), "\(error)")
        let plain = try #require(throws: ResolutionError.self) { try app.resolve(Report.self) }
        #expect(plain.suggestions.contains { $0.contains("takes an argument (String)") })
    }

    @Test func argumentFactoriesResolveDependenciesFromTheAskingContainer() throws {
        let app = Container(name: "app")
        try app.register((any Logger).self) { _ in ConsoleLogger(label: "app") }
        try app.register(String.self) { (r: any Resolver, prefix: String) in
            prefix + (try r.resolve((any Logger).self)).label
        }
        let child = app.child(name: "child")
        try child.register((any Logger).self) { _ in ConsoleLogger(label: "child") }
        #expect(try child.resolve(String.self, argument: "log:") == "log:child")
    }
}
