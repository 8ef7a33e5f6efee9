/// A back-end service's answer to an ``OutboundRequest``.
///
/// ```swift
/// let response = OutboundResponse(status: 200, body: "[]")
/// if response.isSuccess { … }
/// ```
public struct OutboundResponse: Sendable, Hashable {
    /// The HTTP status code.
    public let status: Int
    /// The body, usually JSON.
    public let body: String

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }

    /// Makes a response.
    ///
    /// - Parameters:
    ///   - status: The HTTP status code.
    ///   - body: The body, usually JSON.
    public init(status: Int, body: String = "") {
        self.status = status
        self.body = body
    }
}
