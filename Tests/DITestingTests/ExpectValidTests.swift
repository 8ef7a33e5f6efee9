@testable import DITesting
import DICore
import DIDiagnostics
import Testing

@Suite struct ExpectValidTests {
    @Test func aValidGraphRecordsNothingAndReturnsTheReport() throws {
        let reports = Log()
        let shop = try Shop.valid()
        let report = FailureReporter.$injected.withValue(.capturing(reports.append)) { expectValid(shop) }
        #expect(reports.entries.isEmpty)
        // The closure factory of Journal is a note: reported, never a failure.
        #expect(report.findings.map(\.id) == [.opaque])
    }

    @Test func aMissingDependencyAndACycleAreEachRecordedWithTheirWholeDescription() throws {
        let reports = Log()
        let shop = try Shop.broken()
        let report = FailureReporter.$injected.withValue(.capturing(reports.append)) { expectValid(shop) }
        #expect(report.errors.map(\.id) == [.cycle, .missing])
        #expect(reports.entries == report.errors.map(\.description))
        #expect(reports.entries.contains { $0.hasPrefix("error[DI-MISSING]: ") && $0.contains("Printer") })
        #expect(reports.entries.contains { $0.hasPrefix("error[DI-CYCLE]: ") && $0.contains("Ping") })
    }

    /// In a test container, `expectValid(Container.current)` checks the app's graph as the test resolves it:
    /// the base's missing dependency is recorded, and an override in the test container that provides it is
    /// enough.
    @Test func inATestContainerItChecksTheBaseGraphWithTheTestsOverrides() throws {
        let shop = try Shop.broken()
        let reports = Log()
        let report = FailureReporter.$injected.withValue(.capturing(reports.append)) {
            withTestContainer(from: shop) { _ in expectValid(Container.current, allowing: [.cycle]) }
        }
        #expect(report.errors.map(\.id) == [.cycle, .missing])
        #expect(reports.entries.count == 1)
        #expect(reports.entries.first?.hasPrefix("error[DI-MISSING]: Receipt needs Printer") == true, "\(reports)")
        let fixed = Log()
        try FailureReporter.$injected.withValue(.capturing(fixed.append)) {
            try withTestContainer(from: shop) { container in
                try container.register(Shop.Printer.self) { _ in Shop.Printer() }
                expectValid(Container.current, allowing: [.cycle])
            }
        }
        #expect(fixed.entries.isEmpty, "\(fixed.entries)")
    }

    /// A closed container's registrations are gone: without DI-CLOSED it validated as an empty graph, and
    /// `expectValid` passed.
    @Test func aClosedContainerIsRecordedNotPassed() throws {
        let shop = try Shop.valid()
        shop.close()
        let reports = Log()
        let report = FailureReporter.$injected.withValue(.capturing(reports.append)) { expectValid(shop) }
        #expect(report.errors.map(\.id) == [.closed])
        #expect(reports.entries.count == 1)
        #expect(reports.entries.first?.hasPrefix("error[DI-CLOSED]: shop is closed: ") == true, "\(reports.entries)")
    }

    @Test func failuresReachSwiftTestingAtTheCallSite() throws {
        let shop = try Shop.broken()
        let line = #line + 2
        withKnownIssue {
            expectValid(shop)
        } matching: { issue in
            issue.sourceLocation?.line == line
                && issue.comments.map(\.rawValue).joined().hasPrefix("error[DI-")
        }
    }

    @Test func aWarningFailsUnlessItsIDIsAllowed() throws {
        let reports = Log()
        let shop = try Shop.valid(journalScope: .transient)   // a singleton Ledger holds a transient Journal
        FailureReporter.$injected.withValue(.capturing(reports.append)) { expectValid(shop) }
        let failure = try #require(reports.entries.first)
        #expect(reports.entries.count == 1)
        #expect(failure.hasPrefix("warning[DI-CAPTIVE]: "))
        #expect(failure.contains("List its ID (DI-CAPTIVE) in expectValid's `allowing:` parameter."))

        let allowed = Log()
        let report = FailureReporter.$injected.withValue(.capturing(allowed.append)) {
            expectValid(shop, allowing: [.captive])
        }
        #expect(allowed.entries.isEmpty)
        #expect(report.warnings.map(\.id) == [.captive])
    }

    @Test func instantiatingAlsoReportsFactoriesThatFail() throws {
        let shop = try Shop.valid()
        try shop.register(Shop.Printer.self, fileID: "Shop/Setup.swift", line: 9) { _ in throw Shop.OutOfPaper() }
        let reports = Log()
        FailureReporter.$injected.withValue(.capturing(reports.append)) { expectValid(shop) }
        #expect(reports.entries.isEmpty)
        FailureReporter.$injected.withValue(.capturing(reports.append)) { expectValid(shop, instantiating: true) }
        #expect(reports.entries.count == 1)
        #expect(reports.entries.first?.hasPrefix("error[DI-BUILD]: ") == true)
    }
}
