/// What a request container knows about the request it serves: registered in every request container by
/// ``RequestContainerMiddleware``, so request services can depend on it.
///
/// ```swift
/// try app.autoregister(UnitOfWork.self, scope: .matching("request")) { (request: RequestInfo, store: OrderStore) in
///     UnitOfWork(store: store, requestID: request.id)
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

    /// Creates the values of one request.
    ///
    /// ```swift
    /// let info = RequestInfo(id: context.id, method: "POST", path: "/checkout")
    /// ```
    ///
    /// - Parameters:
    ///   - id: The request's ID.
    ///   - method: The HTTP method.
    ///   - path: The path, without the query.
    public init(id: String, method: String, path: String) {
        self.id = id
        self.method = method
        self.path = path
    }
}
