@testable import DITesting
import DICore
import Testing

@Suite struct LeakedWorkTests {
    @Test(.timeLimit(.minutes(1)))
    func aResolveAfterTheTestEndedIsReportedNamingTheTest() async throws {
        let reports = Log()
        try App.install()
        let leaked = FailureReporter.$injected.withValue(.capturing(reports.append)) {
            withTestContainer { _ in
                #expect(reports.entries.isEmpty)
                // Work the test starts and does not await: it resolves once the test is over.
                return Task {
                    try? await Task.sleep(for: .milliseconds(20))
                    return Result { try Container.current.resolve(Greeter.self) }
                }
            }
        }
        let result = await leaked.value
        #expect(throws: ResolutionError.self) { try result.get() }
        let report = try #require(reports.entries.first)
        #expect(report.contains("Greeter"))
        #expect(report.contains("aResolveAfterTheTestEndedIsReportedNamingTheTest"))
        #expect(report.contains("after that test ended"))
    }

    @Test func nothingIsReportedWhileTheTestRuns() throws {
        let reports = Log()
        try App.install()
        try FailureReporter.$injected.withValue(.capturing(reports.append)) {
            try withTestContainer { _ in _ = try Container.current.resolve(Greeter.self) }
        }
        #expect(reports.entries.isEmpty)
    }

    /// A container the test made below its test container and closed itself refuses to resolve, with the error
    /// alone: the test has not ended, and nothing of it outlived it. A child made of the test container after the
    /// test ended is reported.
    @Test func aClosedChildOfTheTestContainerIsNoLeak() throws {
        let reports = Log()
        try App.install()
        let later = try FailureReporter.$injected.withValue(.capturing(reports.append)) {
            try withTestContainer { test in
                let request = test.child(name: "request")
                _ = try request.resolve(Greeter.self)
                request.close()
                #expect(throws: ResolutionError.self) { try request.resolve(Greeter.self) }
                #expect(throws: ResolutionError.self) { try request.child(name: "late").resolve(Greeter.self) }
                return test
            }
        }
        #expect(reports.entries.isEmpty, "\(reports.entries)")
        #expect(throws: ResolutionError.self) { try later.child(name: "after").resolve(Greeter.self) }
        #expect(reports.entries.count == 1)
    }
}

