import DICore
import DIDiagnostics
import Testing

/// Validates `container` and records a test failure for every error and every warning it finds, except
/// those whose ID is in `allowed`; notes never fail a test.
///
/// Each failure's message is the finding's whole description — headline, path with container, scope and
/// `file:line` at every step, close matches and help — recorded at the call site, with `Issue.record`
/// inside a Swift Testing test and `XCTFail` inside an XCTest test. A test that wires the app's graph and
/// calls this fails as soon as a change breaks the wiring, before any code resolves it.
///
/// ```swift
/// @Test func appGraphIsValid() throws {
///     let app = Container(name: "app")
///     try AppModule.register(in: app)
///     expectValid(app)                                   // errors and warnings fail the test
///     expectValid(app, allowing: [.captive])             // a captive dependency the team accepted
///     expectValid(app, instantiating: true)              // also build every service in throw-away copies
/// }
/// ```
///
/// Warnings (`DI-CAPTIVE`) fail by default because they are almost always a bug; list their ID in
/// `allowed` to accept them. An error's ID may be listed too, for a known break a test must tolerate.
///
/// - Parameters:
///   - container: The container to validate, with its ancestors and descendants (see
///     `Container.validate(instantiating:)`).
///   - instantiating: Also build every service, in throw-away copies, so that failing factories
///     (`DI-BUILD`) and the dependencies of closure factories are found; no instance of `container` is built.
///   - allowed: Finding IDs that must not fail the test, such as `[.captive]`.
///   - fileID: Where it was called; leave the default.
///   - filePath: Where it was called; leave the default.
///   - line: Where it was called; leave the default.
///   - column: Where it was called; leave the default.
/// - Returns: The whole report, notes and allowed findings included.
@discardableResult
public func expectValid(
    _ container: Container,
    instantiating: Bool = false,
    allowing allowed: Set<Finding.ID> = [],
    fileID: String = #fileID,
    filePath: String = #filePath,
    line: Int = #line,
    column: Int = #column
) -> ValidationReport {
    let report = container.validate(instantiating: instantiating)
    let location = Testing.SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    for message in validityFailures(in: report, allowing: allowed) {
        FailureReporter.current.record(message, location)
    }
    return report
}

/// One failure message per finding of `report` that fails a test (an error or a warning whose ID is not in
/// `allowed`), in the report's order; a warning's message says how to accept it.
func validityFailures(in report: ValidationReport, allowing allowed: Set<Finding.ID>) -> [String] {
    report.findings.filter { $0.severity >= .warning && !allowed.contains($0.id) }.map { finding in
        guard finding.severity == .warning else { return finding.description }
        return finding.description
            + "\n  accepted on purpose? List its ID (\(finding.id)) in expectValid's `allowing:` parameter."
    }
}
