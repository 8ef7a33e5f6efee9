import DICore
import DIDiagnostics
import Testing

/// The DIDiagnostics call shapes of the public contract, compiled exactly as documented.
@Suite struct ContractTests {
    @Test func documentedCallShapesCompileAndWork() throws {
        final class Logger: Sendable {}
        let app = try Graphs.healthy().app
        try app.register(Logger.self, scope: .singleton) { _ in Logger() }
        let report = app.validate()          // ValidationReport: `findings`, each with `id` and `severity`
        let deep = app.validate(instantiating: true)
        print(report)
        print(app.graph().text())            // also .dot(), .mermaid(), .json()
        print(app.explain(Logger.self))
        _ = app.graph().dot()
        _ = app.graph().json()
        #expect(app.graph().mermaid().hasPrefix("flowchart"))
        #expect(!report.hasErrors)
        #expect(!deep.hasErrors)
        let ids: [Finding.ID] = report.findings.map(\.id)
        let severities: [Finding.Severity] = report.findings.map(\.severity)
        #expect(ids.count == severities.count)
    }

    @Test func idsAndSeveritiesPrintAsThemselves() {
        let finding = Finding(id: .missing, severity: .error, service: "X", container: "app", message: "m", help: "h")
        #expect("\(finding.id)" == "DI-MISSING")
        #expect("\(finding.severity)" == "error")
        #expect("\(Finding.Severity.warning)" == "warning")
        #expect("\(Finding.Severity.note)" == "note")
        #expect(
            [Finding.ID.cycle, .deferredCycle, .captive, .matching, .async, .alias, .shadow, .opaque, .build, .closed]
                .map(\.description)
                == ["DI-CYCLE", "DI-DEFERRED-CYCLE", "DI-CAPTIVE", "DI-MATCHING", "DI-ASYNC", "DI-ALIAS", "DI-SHADOW",
                    "DI-OPAQUE", "DI-BUILD", "DI-CLOSED"]
        )
    }
}
