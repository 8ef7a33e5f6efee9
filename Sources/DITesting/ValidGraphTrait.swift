import DICore
import DIDiagnostics
import Testing

/// Validates `Container.current` before each test case runs, and records a test failure for every error and
/// every warning found, except those whose ID is allowed — the trait form of
/// `expectValid(_:instantiating:allowing:fileID:filePath:line:column:)`.
///
/// ```swift
/// @Suite(.validGraph) struct CheckoutTests { … }
/// @Test(.validGraph(allowing: [.captive])) func pays() throws { … }
/// ```
///
/// It checks the graph the test case starts with: the app's graph when it comes first, or the test's
/// container with the test's overrides when it follows `.isolatedContainer`. The failures are recorded
/// against the test case (or at the `validGraph(…)` call), and the test still runs.
public struct ValidGraphTrait: TestTrait, SuiteTrait, TestScoping {
    var instantiating = false
    var allowed: Set<Finding.ID> = []
    var location: Testing.SourceLocation?

    /// Always `true`: a suite's trait validates before each of its test cases.
    public var isRecursive: Bool { true }

    /// Validates `Container.current`, records the failures, then runs the test case.
    ///
    /// The testing library calls this; you do not.
    ///
    /// - Parameters:
    ///   - test: The test that runs.
    ///   - testCase: The test case (one argument of a parameterised test); `nil` for a suite.
    ///   - function: Runs the test case or the suite.
    /// - Throws: What the test throws.
    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable @concurrent () async throws -> Void
    ) async throws {
        if testCase != nil {
            let report = Container.current.validate(instantiating: instantiating)
            for message in validityFailures(in: report, allowing: allowed) {
                FailureReporter.current.record(message, location)
            }
        }
        try await function()
    }
}

extension Trait where Self == ValidGraphTrait {
    /// Validates `Container.current` before each test case; errors and warnings fail the test.
    ///
    /// ```swift
    /// @Suite(.validGraph) struct CheckoutTests { … }
    /// ```
    public static var validGraph: Self { ValidGraphTrait() }

    /// Validates `Container.current` before each test case; errors, and warnings not in `allowed`, fail it.
    ///
    /// ```swift
    /// @Test(.validGraph(instantiating: true, allowing: [.captive])) func pays() throws { … }
    /// ```
    ///
    /// - Parameters:
    ///   - instantiating: Also build every service in throw-away copies (`validate(instantiating: true)`).
    ///   - allowed: Finding IDs that must not fail the test, such as `[.captive]`.
    ///   - sourceLocation: Where the trait was written; failures are recorded there. Leave the default.
    /// - Returns: The trait.
    public static func validGraph(
        instantiating: Bool = false,
        allowing allowed: Set<Finding.ID> = [],
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> Self {
        ValidGraphTrait(instantiating: instantiating, allowed: allowed, location: sourceLocation)
    }
}
