import Logging
import ShopCore

/// A ``ShopLogger`` that writes to swift-log at `debug`, so the shop's lines join the server's log and stay
/// quiet unless `LOG_LEVEL=debug`.
///
/// ```swift
/// let shop = try ShopApp.makeContainer(logger: SwiftLogShopLogger(Logger(label: "shop")))
/// ```
public struct SwiftLogShopLogger: ShopLogger {
    private let logger: Logger

    /// Wraps a swift-log logger.
    ///
    /// - Parameter logger: Where the lines go.
    public init(_ logger: Logger) {
        self.logger = logger
    }

    /// Logs the line at `debug`.
    ///
    /// - Parameter message: The line.
    public func log(_ message: String) {
        logger.debug("\(message)")
    }
}
