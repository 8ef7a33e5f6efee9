import DICore
import DIDiagnostics
import DITestSupport
import Foundation
import Testing

/// Diagnostics read a tree that other threads keep changing: `validate()`, `validate(instantiating: true)`,
/// `graph()` and `explain(_:)` run while threads register, re-register, resolve, make and close children of a
/// healthy tree: no crash, no error in the threads, and no report with an error or a warning — each change
/// keeps the tree healthy, and a report sees the tree as it was at some moment. Run under ThreadSanitizer too.
@Suite(.timeLimit(.minutes(1))) struct ConcurrentDiagnosticsTests {
    @Test(arguments: [1, 2, 3, 16])
    func diagnosticsWhileTheTreeChanges(threads: Int) async throws {
        let (app, checkout) = try Graphs.healthy()
        defer { withExtendedLifetime(checkout) {} }
        let stop = ContinuousClock.now + .milliseconds(400)
        let outcomes = await raceOnThreads(threads + 1, within: .seconds(30)) { thread -> [String] in
            var problems: [String] = []
            var round = 0
            while ContinuousClock.now < stop {
                round += 1
                do {
                    if thread == threads {
                        // The reader: every report of the healthy tree has no errors and no warnings.
                        let report = round % 2 == 0 ? app.validate() : app.validate(instantiating: true)
                        let bad = report.findings.filter { $0.severity != .note }
                        if !bad.isEmpty { problems.append("\(bad.map(\.description))") }
                        _ = app.graph().text()
                        _ = checkout.explain(Repository.self).description
                    } else {
                        switch round % 4 {
                        case 0:
                            try app.register(Cache.self, scope: .singleton, fileID: "App/Setup.swift", line: 11) { _ in
                                Cache()
                            }
                        case 1:
                            _ = try checkout.resolve(ViewModel.self)
                        case 2:
                            let screen = checkout.child(name: "screen \(thread).\(round)")
                            try screen.register(Cache.self) { _ in Cache() }
                            _ = try screen.resolve(ViewModel.self)
                            screen.close()
                        default:
                            try app.register(Session.self, name: "s\(thread)") { _ in Session() }
                        }
                    }
                } catch {
                    problems.append("thread \(thread): \(error)")
                }
            }
            return problems
        }
        let finished = try #require(outcomes, "the threads did not finish")
        #expect(finished.flatMap { $0 }.isEmpty, "\(finished.flatMap { $0 }.prefix(3))")
    }
}
