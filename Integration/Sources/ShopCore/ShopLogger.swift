/// Where the shop's services write what they do.
///
/// Named `ShopLogger` (not `Logger`) so that an app that also imports swift-log, as a Hummingbird server
/// does, needs no module prefix.
///
/// ```swift
/// let logger: any ShopLogger = try app.resolve((any ShopLogger).self)
/// logger.log("catalog loaded")
/// ```
public protocol ShopLogger: Sendable {
    /// Writes one line.
    ///
    /// - Parameter message: The line, without a trailing newline.
    func log(_ message: String)
}
