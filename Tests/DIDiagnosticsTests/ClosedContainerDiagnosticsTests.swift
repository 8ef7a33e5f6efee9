import DICore
import DIDiagnostics
import DITestSupport
import Testing

/// A close takes away the registrations a container resolves. Its diagnostics say so (DI-CLOSED) instead of
/// describing an empty graph with no errors — which `expectValid` and a start-up check would take for a pass —
/// or reporting a registered service as not registered.
@Suite(.timeLimit(.minutes(1))) struct ClosedContainerDiagnosticsTests {
    /// Where the close is, seen from the container the diagnostics are asked of.
    enum Closing: String, CaseIterable, Sendable {
        /// `close()` on the container itself.
        case itself
        /// On its parent: the container closes with it.
        case parent
        /// On the base of a test container, which is not closed with it.
        case testContainersBase
    }

    /// The healthy graph, closed as `closing` says; returns the container asked and what its findings must say.
    private func closed(_ closing: Closing) throws -> (asked: Container, keep: [Container], says: String) {
        let (app, checkout) = try Graphs.healthy()
        switch closing {
        case .itself:
            checkout.close()
            return (checkout, [app], "checkout is closed: close() dropped its registrations")
        case .parent:
            app.close()
            return (checkout, [app], "checkout is closed, and so is its ancestor app: closing a container closes")
        case .testContainersBase:
            let test = Container.makeTestContainer(from: checkout, name: "test")
            app.close()
            return (test, [app, checkout], "test is a test container made from checkout, and checkout's ancestor app "
                + "is closed, and checkout is closing with it")
        }
    }

    @Test(arguments: Closing.allCases)
    func validateReportsTheCloseAsAnError(closing: Closing) async throws {
        let (asked, keep, says) = try closed(closing)
        defer { withExtendedLifetime(keep) {} }
        for (call, report) in [
            ("validate()", asked.validate()),
            ("validate(instantiating: true)", asked.validate(instantiating: true)),
            ("validateAsync()", await asked.validateAsync()),
        ] {
            let closed = report.findings.filter { $0.id == .closed }
            #expect(closed.count == 1, "\(call): \(report)")
            #expect(closed.first?.severity == .error, "\(call)")
            #expect(closed.first?.message.contains(says) == true, "\(call): \(report)")
            #expect(report.description.contains("error[DI-CLOSED]"), "\(call): \(report)")
        }
    }

    @Test func theFindingSaysWhereToValidateInstead() throws {
        let (app, checkout) = try Graphs.healthy()
        app.close()
        let finding = try #require(checkout.validate().findings.first)
        #expect(finding.description == """
            error[DI-CLOSED]: checkout is closed, and so is its ancestor app: closing a container closes its \
            descendants, so checkout resolves nothing and has no graph to check.
              help: Validate before closing app, or validate a container that is still open.
            """)
        let own = try #require(app.validate().findings.first)
        #expect(own.message == "app is closed: close() dropped its registrations, so it resolves nothing and has no "
            + "graph to check.")
    }

    /// A request's container that finished is closed; the tree above it still works and validates clean.
    @Test func aClosedDescendantIsNoFinding() throws {
        let (app, checkout) = try Graphs.healthy()
        checkout.close()
        #expect(!app.validate().findings.contains { $0.id == .closed }, "\(app.validate())")
        #expect(!app.validate().findings.contains { $0.severity == .error })
    }

    @Test(arguments: Closing.allCases)
    func theGraphCarriesTheFinding(closing: Closing) throws {
        let (asked, keep, says) = try closed(closing)
        defer { withExtendedLifetime(keep) {} }
        let graph = asked.graph()
        #expect(graph.findings.map(\.id) == [.closed])
        #expect(graph.text().contains("error[DI-CLOSED]: \(says)"), "\(graph.text())")
        #expect(graph.text().contains("\(asked.name) (closed)") == asked.isClosed, "\(graph.text())")
        #expect(graph.json().contains("\"closed\": true") == asked.isClosed, "\(graph.json())")
    }

    @Test(arguments: Closing.allCases)
    func explainSaysTheServiceIsGoneWithTheCloseNotUnregistered(closing: Closing) throws {
        let (asked, keep, says) = try closed(closing)
        defer { withExtendedLifetime(keep) {} }
        let explanation = asked.explain(Repository.self)
        #expect(explanation.provider == nil)
        #expect(explanation.closed?.problem.contains(says) == true, "\(explanation)")
        #expect(explanation.suggestions.isEmpty)
        #expect(explanation.description.contains("provided by:  nothing: \(says)"), "\(explanation)")
        #expect(!explanation.description.contains("not registered"), "\(explanation)")
    }

    @Test func aTestContainerOverAClosedBaseExplainsWhatItRegisteredItself() throws {
        let (asked, keep, _) = try closed(.testContainersBase)
        defer { withExtendedLifetime(keep) {} }
        try asked.register(Cache.self, scope: .singleton, fileID: "Tests/Fake.swift", line: 1) { _ in Cache() }
        let explanation = asked.explain(Cache.self)
        #expect(explanation.provider == "test")
        #expect(explanation.closed == nil)
        #expect(explanation.description == """
            Cache, as test resolves it
              provided by:  test (Tests/Fake.swift:1)
              lookup:       test (found)
              scope:        singleton; the instance is held by test, its dependencies come from test
              shadows:      nothing
              dependencies: none known
              dependents:   none known
              findings:     DI-OPAQUE
            """)
    }

    /// Diagnostics of a container whose ancestor closes meanwhile see the tree before the close, or say it is
    /// closed: a report never shows the registrations a close took away as missing without saying why (while
    /// the close runs, the closed app's are gone and the open checkout's still there), and an explanation names
    /// a provider or the close. Run under ThreadSanitizer too.
    @Test(arguments: [1, 2, 3, 16])
    func diagnosticsWhileAnAncestorCloses(threads: Int) async throws {
        let (app, checkout) = try Graphs.healthy()
        let screen = checkout.child(name: "screen")
        let outcomes = await raceOnThreads(threads + 1, within: .seconds(30)) { thread -> [String] in
            guard thread < threads else {
                // The closer: lets the readers start, then closes the tree under them.
                for _ in 0..<20 { _ = checkout.validate() }
                app.close()
                return []
            }
            var problems: [String] = []
            var sawClosed = false
            while !sawClosed {
                let report = screen.validate()
                let errors = report.findings.filter { $0.severity == .error }.map(\.id)
                sawClosed = errors.contains(.closed)
                if !errors.isEmpty && !sawClosed { problems.append("\(report)") }
                let explanation = screen.explain(Repository.self)
                if explanation.provider == nil && explanation.closed == nil { problems.append("\(explanation)") }
                if !sawClosed { sawClosed = screen.isClosed }
            }
            return problems
        }
        let finished = try #require(outcomes, "the threads did not finish")
        #expect(finished.flatMap { $0 }.isEmpty, "\(finished.flatMap { $0 }.prefix(3))")
        // Once close() has returned, the whole tree is closed: the close is all there is to say.
        #expect(screen.validate().findings.map(\.id) == [.closed])
    }

    @Test func anOpenContainerExplainsAsBefore() throws {
        let (app, checkout) = try Graphs.healthy()
        defer { withExtendedLifetime(app) {} }
        #expect(checkout.explain(Repository.self).closed == nil)
        #expect(checkout.explain(Int.self).closed == nil)
        #expect(checkout.explain(Int.self).description.contains("it is not registered in checkout → app"))
    }
}
