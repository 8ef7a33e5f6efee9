import Testing

/// A placeholder for a dependency a test should not use: records a test failure naming `name`, and returns
/// `placeholder` so the code under test can go on.
///
/// ```swift
/// struct FailingRepository: Repository {
///     func items() -> [Item] { unimplemented("Repository.items()", placeholder: []) }
/// }
/// ```
///
/// - Parameters:
///   - name: The dependency and the call, as the failure should name them.
///   - placeholder: The value returned after the failure was recorded.
///   - fileID: Where the placeholder was written; leave the default.
///   - filePath: Where the placeholder was written; leave the default.
///   - line: Where the placeholder was written; leave the default.
///   - column: Where the placeholder was written; leave the default.
/// - Returns: `placeholder`.
public func unimplemented<Value>(
    _ name: String,
    placeholder: Value,
    fileID: String = #fileID,
    filePath: String = #filePath,
    line: Int = #line,
    column: Int = #column
) -> Value {
    Unimplemented(name: name, location: .init(fileID: fileID, filePath: filePath, line: line, column: column))
        .fail(call: "was used")
    return placeholder
}

/// A closure for a dependency a test should not call: each call records a test failure naming `name` and the
/// arguments.
///
/// ```swift
/// let analytics = Analytics(track: unimplemented("Analytics.track"))
/// ```
///
/// - Parameters:
///   - name: The dependency, as the failure should name it.
///   - fileID: Where the placeholder was written; leave the default.
///   - filePath: Where the placeholder was written; leave the default.
///   - line: Where the placeholder was written; leave the default.
///   - column: Where the placeholder was written; leave the default.
/// - Returns: A closure that records a failure on every call.
public func unimplemented<each Argument>(
    _ name: String,
    fileID: String = #fileID,
    filePath: String = #filePath,
    line: Int = #line,
    column: Int = #column
) -> @Sendable (repeat each Argument) -> Void {
    let location = Testing.SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let stub = Unimplemented(name: name, location: location)
    return { (argument: repeat each Argument) in
        stub.fail(call: Unimplemented.describe(repeat each argument))
    }
}

/// A closure for a dependency a test should not call: each call records a test failure naming `name` and the
/// arguments, and returns `placeholder`.
///
/// ```swift
/// let api = API(fetch: unimplemented("API.fetch", placeholder: Data()))
/// ```
///
/// - Parameters:
///   - name: The dependency, as the failure should name it.
///   - placeholder: What each call returns after recording the failure.
///   - fileID: Where the placeholder was written; leave the default.
///   - filePath: Where the placeholder was written; leave the default.
///   - line: Where the placeholder was written; leave the default.
///   - column: Where the placeholder was written; leave the default.
/// - Returns: A closure that records a failure on every call.
public func unimplemented<each Argument, Output: Sendable>(
    _ name: String,
    placeholder: Output,
    fileID: String = #fileID,
    filePath: String = #filePath,
    line: Int = #line,
    column: Int = #column
) -> @Sendable (repeat each Argument) -> Output {
    let location = Testing.SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let stub = Unimplemented(name: name, location: location)
    return { (argument: repeat each Argument) in
        stub.fail(call: Unimplemented.describe(repeat each argument))
        return placeholder
    }
}

/// What an `unimplemented` placeholder records.
struct Unimplemented: Sendable {
    let name: String
    let location: Testing.SourceLocation

    func fail(call: String) {
        let test = TestScope.current.map { " in \($0.testName)" } ?? ""
        FailureReporter.current.record("Unimplemented: \(name) \(call)\(test). Override it for this test.", location)
    }

    static func describe<each Argument>(_ argument: repeat each Argument) -> String {
        var described: [String] = []
        for value in repeat each argument { described.append(String(reflecting: value)) }
        return "was called with (\(described.joined(separator: ", ")))"
    }
}
