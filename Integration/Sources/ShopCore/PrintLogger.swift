/// A logger that prints each line to standard output, after a prefix.
///
/// ```swift
/// try app.register((any ShopLogger).self, scope: .singleton) { _ in PrintLogger(prefix: "shop") }
/// ```
public struct PrintLogger: ShopLogger {
    /// Printed in brackets before every line.
    public let prefix: String

    /// Makes a logger that prints `[prefix] message`.
    ///
    /// - Parameter prefix: Printed in brackets before every line.
    public init(prefix: String = "shop") {
        self.prefix = prefix
    }

    /// Prints `[prefix] message`.
    ///
    /// - Parameter message: The line.
    public func log(_ message: String) {
        print("[\(prefix)] \(message)")
    }
}
