import DICore
import Testing

@Suite struct ArgumentTests {
    struct Report: Sendable {
        let quarter: String
        let page: Int
    }

    @Test func oneArgument() throws {
        let app = Container(name: "app")
        try app.register(Report.self) { (_: any Resolver, quarter: String) in Report(quarter: quarter, page: 1) }
        #expect(try app.resolve(Report.self, argument: "2026-Q3").quarter == "2026-Q3")
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
        #expect(error.description.contains("Int"))
        #expect(error.description.contains("String"))
        // The path ends at the registration that takes other arguments, not at "not found".
        #expect(error.path.last?.location?.fileID == "DICoreTests/ArgumentTests.swift", "\(error)")
        #expect(!error.description.contains("not found"), "\(error)")
    }

    @Test func wrongArgumentCountIsAClearError() throws {
        let app = Container(name: "app")
        try app.register(Report.self) { (_: any Resolver, quarter: String) in Report(quarter: quarter, page: 1) }
        let error = try #require(throws: ResolutionError.self) { try app.resolve(Report.self, arguments: "Q1", 2) }
        #expect(error.code == .argumentMismatch)
        let plain = try #require(throws: ResolutionError.self) { try app.resolve(Report.self) }
        #expect(plain.suggestions.contains { $0.contains("takes arguments (String)") })
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
