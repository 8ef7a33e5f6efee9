import Synchronization

/// An ``HTTPClient`` that answers from handlers in memory and remembers what it was sent: the shop's back
/// end in the demo, the tests and the sample server.
///
/// ```swift
/// let http = InMemoryHTTPClient(routes: [
///     "GET /inventory": { _ in OutboundResponse(status: 200, body: "[]") }
/// ])
/// let response = try await http.send(OutboundRequest(method: "GET", path: "/inventory"))
/// ```
///
/// A request with no handler gets a 404 response, as a real server would answer.
public final class InMemoryHTTPClient: HTTPClient {
    /// Answers one route.
    public typealias Handler = @Sendable (OutboundRequest) async throws -> OutboundResponse

    private let routes: [String: Handler]
    private let sent = Mutex<[OutboundRequest]>([])

    /// Makes a client that answers `"METHOD /path"` with its handler.
    ///
    /// - Parameter routes: The handlers, keyed by method and path: `"GET /inventory"`.
    public init(routes: [String: Handler]) {
        self.routes = routes
    }

    /// Every request sent so far, oldest first.
    public var requests: [OutboundRequest] { sent.withLock { $0 } }

    /// Records the request and answers it with its route's handler, or 404.
    ///
    /// - Parameter request: The request.
    /// - Returns: The handler's response, or a 404 response.
    /// - Throws: What the handler throws.
    public func send(_ request: OutboundRequest) async throws -> OutboundResponse {
        sent.withLock { $0.append(request) }
        guard let handler = routes["\(request.method) \(request.path)"] else {
            return OutboundResponse(status: 404, body: "no route for \(request.method) \(request.path)")
        }
        return try await handler(request)
    }
}
