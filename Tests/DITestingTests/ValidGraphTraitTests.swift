@testable import DITesting
import DICore
import DIDiagnostics
import Testing

@Suite struct ValidGraphTraitTests {
    /// Binds a fresh shop, broken or valid, as `Container.current` for one test.
    struct BoundShop: TestTrait, TestScoping {
        let broken: Bool
        func provideScope(
            for test: Test, testCase: Test.Case?, performing function: @Sendable @concurrent () async throws -> Void
        ) async throws {
            let shop = try broken ? Shop.broken() : Shop.valid()
            try await Container.$current.withValue(shop) { try await function() }
        }
    }

    @Test(BoundShop(broken: false), .validGraph)
    func aValidGraphLetsTheTestRun() throws {
        #expect(Container.current.name == "shop")
    }

    @Test(.timeLimit(.minutes(1)))
    func aBrokenGraphRecordsEachErrorThenRunsTheTest() async throws {
        let reports = Log()
        let ran = Log()
        try await FailureReporter.$injected.withValue(.capturing(reports.append)) {
            try await Container.$current.withValue(try Shop.broken()) {
                try await ValidGraphTrait.validGraph.provideScope(for: Test.current!, testCase: nil) { }
                #expect(reports.entries.isEmpty, "a suite-level scope validates nothing by itself")
                try await ValidGraphTrait.validGraph(allowing: [.cycle]).provideScope(
                    for: Test.current!, testCase: Test.Case.current
                ) { ran.append("ran") }
            }
        }
        #expect(ran.entries == ["ran"])
        #expect(reports.entries.count == 1)
        #expect(reports.entries.first?.hasPrefix("error[DI-MISSING]: Receipt needs Printer") == true)
    }

    @Test(BoundShop(broken: false), .isolatedContainer, .override(Shop.Journal.self) { _ in Shop.Journal() },
          .validGraph)
    func afterIsolatedContainerItValidatesTheTestContainer() throws {
        // The test container sees the shop's registrations: no false DI-MISSING was recorded.
        #expect(Container.current.name != "shop")
    }

    /// In a test container the trait validates the shop's graph as the test resolves it, with the test's
    /// overrides: the broken shop's missing `Printer` is recorded from the test container, and not once the
    /// test container provides one.
    @Test(.timeLimit(.minutes(1)))
    func inATestContainerItValidatesTheBaseGraphWithTheOverrides() async throws {
        let shop = try Shop.broken()
        for provided in [false, true] {
            let reports = Log()
            try await FailureReporter.$injected.withValue(.capturing(reports.append)) {
                try await withTestContainer(from: shop) { container in
                    if provided { try container.register(Shop.Printer.self) { _ in Shop.Printer() } }
                    try await ValidGraphTrait.validGraph(allowing: [.cycle]).provideScope(
                        for: Test.current!, testCase: Test.Case.current
                    ) {}
                }
            }
            #expect(reports.entries.count == (provided ? 0 : 1), "\(reports.entries)")
            if !provided {
                #expect(reports.entries.first?.hasPrefix("error[DI-MISSING]: Receipt needs Printer") == true)
            }
        }
    }
}
