import HTTPTypes

/// What a request container knows about the request it serves: registered in every request container by
/// ``RequestContainerMiddleware``, so request services can depend on it.
///
/// ```swift
/// try app.autoregister(UnitOfWork.self, scope: .matching("request")) { (request: RequestInfo, store: OrderStore) in
///     UnitOfWork(store: store, requestID: request.id)
/// }
/// // A value taken from the request, computed only when a service first asks for it:
/// try app.autoregister(CurrentUser.self, scope: .matching("request")) { (request: RequestInfo) in
///     CurrentUser(name: request.headers[.init("X-User")!] ?? "guest")
/// }
/// ```
///
/// It holds copies of the request's values, not the `Request` itself, so a service that keeps it does not
/// keep the request body alive.
public struct RequestInfo: Sendable, Hashable {
    /// The ID Hummingbird gave the request (the `hb.request.id` of its logger).
    public let id: String
    /// The HTTP method, `GET`, `POST`, ….
    public let method: String
    /// The path of the request, without the query.
    public let path: String
    /// The request's header fields.
    public let headers: HTTPFields

    /// Creates the values of one request.
    ///
    /// ```swift
    /// let info = RequestInfo(id: context.id, method: "POST", path: "/checkout", headers: request.headers)
    /// ```
    ///
    /// - Parameters:
    ///   - id: The request's ID.
    ///   - method: The HTTP method.
    ///   - path: The path, without the query.
    ///   - headers: The request's header fields.
    public init(id: String, method: String, path: String, headers: HTTPFields = [:]) {
        self.id = id
        self.method = method
        self.path = path
        self.headers = headers
    }
}
