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
    var warn: @Sendable (_ message: String, _ location: Testing.SourceLocation?) -> Void = { message, location in
        if Test.current != nil {
            if let location {
                Issue.record(Comment(rawValue: message), severity: .warning, sourceLocation: location)
            } else {
                Issue.record(Comment(rawValue: message), severity: .warning)
            }
        } else {
            let at = location.map { " (at \($0.fileID):\($0.line))" } ?? ""
            print("warning: " + message + at)
        }
    }

    /// The reporter in effect for the current task: an injected one, else ``standard``.
    static var current: FailureReporter { injected ?? .standard }

    @TaskLocal static var injected: FailureReporter?

    /// Routes by `Test.current`: Swift Testing gets an issue at `location`, XCTest a failure whose message
    /// carries the location (XCTest takes only a static file name).
    static let standard = FailureReporter { message, location in
        if Test.current != nil {
            if let location {
                Issue.record(Comment(rawValue: message), sourceLocation: location)
            } else {
                Issue.record(Comment(rawValue: message))
            }
        } else {
            let at = location.map { " (at \($0.fileID):\($0.line))" } ?? ""
            XCTFail(message + at)
        }
    }

    /// A reporter that hands every failure to `sink` instead of failing a test, and every warning too, after
    /// "warning: ".
    static func capturing(_ sink: @escaping @Sendable (String) -> Void) -> FailureReporter {
        FailureReporter(record: { message, _ in sink(message) }, warn: { message, _ in sink("warning: " + message) })
    }
}
