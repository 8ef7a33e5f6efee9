import DICore
import Testing
import XCTest

/// Where DITesting's helpers record a failure: `Issue.record` inside a Swift Testing test, `XCTFail` inside
/// an XCTest test (each framework silently drops the other's failures, so the running test decides).
///
/// Tests of DITesting itself inject a capturing reporter (``capturing(_:)``) to prove that a failure was
/// recorded without failing their own test.
struct FailureReporter: Sendable {
    let record: @Sendable (_ message: String, _ location: Testing.SourceLocation?) -> Void
    /// Records a warning: shown with the test's results, without failing the test.
    let warn: @Sendable (_ message: String, _ location: Testing.SourceLocation?) -> Void

    /// The reporter in effect for the current task: an injected one, else ``standard``.
    static var current: FailureReporter { injected ?? .standard }

    @TaskLocal static var injected: FailureReporter?

    /// Routes each report by `Test.current`, as `route` says.
    static let standard = FailureReporter(
        record: { message, location in route(message, location, .error) },
        warn: { message, location in route(message, location, .warning) }
    )

    /// Swift Testing gets an issue of `severity` at `location`; XCTest a failure, and a warning a printed line,
    /// whose message carries the location (XCTest takes only a static file name).
    private static func route(_ message: String, _ location: Testing.SourceLocation?, _ severity: Issue.Severity) {
        if Test.current != nil {
            if let location {
                Issue.record(Comment(rawValue: message), severity: severity, sourceLocation: location)
            } else {
                Issue.record(Comment(rawValue: message), severity: severity)
            }
            return
        }
        let at = location.map { " (at \($0.fileID):\($0.line))" } ?? ""
        if severity == .warning { print("warning: " + message + at) } else { XCTFail(message + at) }
    }

    /// A reporter that hands every failure to `sink` instead of failing a test, and every warning too, after
    /// "warning: ".
    static func capturing(_ sink: @escaping @Sendable (String) -> Void) -> FailureReporter {
        FailureReporter(record: { message, _ in sink(message) }, warn: { message, _ in sink("warning: " + message) })
    }
}
