import DICore
import DITestSupport
import Foundation
import Testing

@Suite struct ProviderTests {
    final class Receipt: Sendable {}

    final class Report: Sendable {
        let quarter: String
        let pages: Int
        init(quarter: String, pages: Int = 1) {
            self.quarter = quarter
            self.pages = pages
        }
    }

    final class Checkout: Sendable {
        let receipts: Provider<Receipt>
        let makeReport: Provider<Report, String>
        init(receipts: Provider<Receipt>, makeReport: Provider<Report, String>) {
            self.receipts = receipts
            self.makeReport = makeReport
        }
    }

    @Test(arguments: [(Scope.transient, 3), (Scope.singleton, 1)])
    func eachCallHonoursTheTargetsLifetime(scope: Scope, instances: Int) throws {
        let app = Container(name: "app")
        try app.register(Receipt.self, scope: scope) { _ in Receipt() }
        let receipts = try app.resolve(Provider<Receipt>.self)
        // Kept alive, so that no address is reused.
        let made = try (0..<3).map { _ in try receipts() }
        #expect(Set(made.map(ObjectIdentifier.init)).count == instances)
    }

    @Test func assistedProviderPassesItsArguments() throws {
        let app = Container(name: "app")
        try app.register(Receipt.self) { _ in Receipt() }
        try app.register(Report.self) { (_: any Resolver, quarter: String) in Report(quarter: quarter) }
        try app.autoregister(Checkout.self, initializer: Checkout.init)
        let checkout = try app.resolve(Checkout.self)
        #expect(try checkout.makeReport("2026-Q3").quarter == "2026-Q3")
        #expect(try checkout.makeReport("2026-Q4").quarter == "2026-Q4")
    }

    @Test func assistedProviderTakesSeveralArguments() throws {
        let app = Container(name: "app")
        try app.register(Report.self) { (_: any Resolver, quarter: String, pages: Int) in
            Report(quarter: quarter, pages: pages)
        }
        let make = try app.resolve(Provider<Report, String, Int>.self)
        let error = try #require(throws: ResolutionError.self) { try app.resolve(Provider<Report, Int>.self) }
        #expect(error.path.last?.description == "Report")
        #expect(Dependency(Provider<Report, String, Int>.self).description == "Provider<Report, String, Int>")
        #expect(Dependency(Provider<Report>.self).description == "Provider<Report>")
        let report = try make("2026-Q1", 12)
        #expect(report.quarter == "2026-Q1")
        #expect(report.pages == 12)
    }

    /// A relationship whose arguments do not fit the registration fails when injected, saying which arguments
    /// it asked with, which the registration takes, and which relationship fits.
    @Test func aRelationshipForOtherArgumentTypesFailsWhenInjectedNamingTheOneThatFits() throws {
        let app = Container(name: "app")
        try app.register(Report.self) { (_: any Resolver, quarter: String) in Report(quarter: quarter) }
        try app.register(Receipt.self) { _ in Receipt() }
        let cases: [(ask: () throws -> Any, says: String, fits: String)] = [
            ({ try app.resolve(Provider<Report, Int>.self) },
             "Provider<Report, Int> asks for it with an argument (Int)", "Inject Provider<Report, String> instead."),
            ({ try app.resolve(Provider<Report>.self) }, "Provider<Report> asks for it without arguments",
             "Inject Provider<Report, String> instead."),
            ({ try app.resolve(Lazy<Report>.self) }, "Lazy<Report> asks for it without arguments",
             "Inject Provider<Report, String> instead."),
            ({ try app.resolve(Provider<Receipt, Int>.self) }, "takes no arguments",
             "Inject Provider<Receipt> instead."),
            ({ try app.resolve(Provider<Report, Int, Int>.self) },
             "Provider<Report, Int, Int> asks for it with arguments (Int, Int)",
             "Inject Provider<Report, String> instead."),
        ]
        for (ask, says, fits) in cases {
            let error = try #require(throws: ResolutionError.self) { _ = try ask() }
            #expect(error.code == .argumentMismatch)
            #expect(error.description.contains(says), "\(error)")
            #expect(error.description.contains(fits), "\(error)")
            #expect(!error.description.contains("resolve(_:argument"), "no advice to pass arguments: \(error)")
        }
    }

    @Test func resolvesFromTheContainerItWasMadeIn() throws {
        let app = Container(name: "app")
        let child = app.child(name: "child")
        try app.register(Report.self) { _ in Report(quarter: "app") }
        try child.register(Report.self) { _ in Report(quarter: "child") }
        #expect(try child.resolve(Provider<Report>.self)().quarter == "child")
        #expect(try app.resolve(Provider<Report>.self)().quarter == "app")
    }

    @Test func failsWhenInjectedIfTheTargetIsNotRegistered() throws {
        let app = Container(name: "app")
        let error = try #require(throws: ResolutionError.self) { try app.resolve(Provider<Receipt>.self) }
        #expect(error.code == .notRegistered)
        #expect(ObjectIdentifier(error.requestedType) == ObjectIdentifier(Receipt.self))
    }

    @Test(.timeLimit(.minutes(1)))
    func callsFromManyThreadsShareOneSingleton() async throws {
        let app = Container(name: "app")
        let built = Counter()
        try app.register(Receipt.self, scope: .singleton) { _ in
            built.increment()
            usleep(10_000)
            return Receipt()
        }
        let receipts = try app.resolve(Provider<Receipt>.self)
        let results = try #require(
            await raceOnThreads(8) { _ in (try? receipts()).map(ObjectIdentifier.init) }, "threads hung"
        )
        let ids = results.compactMap { $0 ?? nil }
        #expect(ids.count == 8)
        #expect(Set(ids).count == 1)
        #expect(built.value == 1)
    }

    @Test func worksWithANonSendableTransient() throws {
        let app = Container(name: "app")
        try app.register(Formatter.self) { _ in Formatter() }
        let formatters = try app.resolve(Provider<Formatter>.self)
        let first = try formatters()
        #expect(try formatters() !== first)
    }

    @Test func aProviderBuiltByHandCallsItsClosureWithTheArguments() throws {
        let receipts = Counter()
        let checkout = Checkout(
            receipts: Provider {
                receipts.increment()
                return Receipt()
            },
            makeReport: Provider { quarter in Report(quarter: quarter, pages: 2) }
        )
        #expect(try checkout.receipts() !== checkout.receipts())
        #expect(receipts.value == 2)
        let report = try checkout.makeReport("2026-Q3")
        #expect(report.quarter == "2026-Q3")
        #expect(report.pages == 2)
        let failing = Provider<Receipt> { throw FactoryError(reason: "hand-built") }
        #expect(throws: FactoryError(reason: "hand-built")) { try failing() }
    }
}
