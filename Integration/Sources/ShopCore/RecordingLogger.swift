import Synchronization

/// A logger that keeps its lines in memory, for tests and for a demo that prints them its own way.
///
/// ```swift
/// let logger = RecordingLogger()
/// logger.log("paid")
/// logger.lines          // ["paid"]
/// ```
public final class RecordingLogger: ShopLogger {
    private let recorded = Mutex<[String]>([])

    /// Makes an empty logger.
    public init() {}

    /// Every line logged so far, oldest first.
    public var lines: [String] { recorded.withLock { $0 } }

    /// Keeps the line.
    ///
    /// - Parameter message: The line.
    public func log(_ message: String) {
        recorded.withLock { $0.append(message) }
    }
}
