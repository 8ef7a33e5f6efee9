/// A request to a back-end service, as ``HTTPClient`` sends it.
///
/// ```swift
/// let request = OutboundRequest(method: "POST", path: "/payments", body: #"{"cents":1250}"#)
/// ```
public struct OutboundRequest: Sendable, Hashable {
    /// `GET`, `POST`, …
    public let method: String
    /// The path, starting with `/`.
    public let path: String
    /// The body, usually JSON; empty for none.
    public let body: String

    /// Makes a request.
    ///
    /// - Parameters:
    ///   - method: `GET`, `POST`, …
    ///   - path: The path, starting with `/`.
    ///   - body: The body, usually JSON; empty for none.
    public init(method: String, path: String, body: String = "") {
        self.method = method
        self.path = path
        self.body = body
    }
}
