/// Sends requests to the shop's back-end services (inventory, payments).
///
/// Features depend on this protocol; the app decides whether it talks to real servers or to an
/// ``InMemoryHTTPClient``.
///
/// ```swift
/// let http = try app.resolve((any HTTPClient).self)
/// let response = try await http.send(OutboundRequest(method: "GET", path: "/inventory"))
/// ```
public protocol HTTPClient: Sendable {
    /// Sends one request and returns the response, whatever its status.
    ///
    /// - Parameter request: The request to send.
    /// - Returns: The response.
    /// - Throws: When the request could not be delivered.
    func send(_ request: OutboundRequest) async throws -> OutboundResponse
}
