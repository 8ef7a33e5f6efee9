import HTTPTypes
import Hummingbird
import Logging

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
    /// The ID Hummingbird gave the request (the `hb.request.id` of its logger). Made into text when it is
    /// read: formatting it costs more than the rest of a request container's set-up, and most requests
    /// (a product list, a health check) never read it.
    public var id: String { identifier.text }
    /// The HTTP method, `GET`, `POST`, ….
    public let method: String
    /// The path of the request, without the query.
    public let path: String
    /// The request's header fields.
    public let headers: HTTPFields
    private let identifier: Identifier

    /// The request's ID: text, or the value Hummingbird keeps in the request's logger metadata.
    private enum Identifier: Sendable {
        case text(String)
        case metadata(Logger.MetadataValue)

        var text: String {
            switch self {
            case .text(let text): text
            case .metadata(let value): value.description
            }
        }
    }

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
        self.identifier = .text(id)
        self.method = method
        self.path = path
        self.headers = headers
    }

    /// The values of `request`, with the ID of `context` (`context.id`, made into text only when read).
    ///
    /// ```swift
    /// let info = RequestInfo(request, context: context)
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - context: The request's context, whose logger carries the request's ID.
    public init<Context: RequestContext>(_ request: borrowing Request, context: borrowing Context) {
        let identifier: Identifier
        if let id = context.logger[metadataKey: "hb.request.id"] {
            identifier = .metadata(id)
        } else {
            identifier = .text(context.id)
        }
        self.init(request, identifier: identifier)
    }

    /// The values of `request`, with the ID `id`.
    ///
    /// ```swift
    /// let info = RequestInfo(request, id: "validation")
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - id: The request's ID.
    public init(_ request: borrowing Request, id: String) {
        self.init(request, identifier: .text(id))
    }

    /// The request and the context are borrowed: an initializer takes its arguments owned, and the middleware
    /// would copy a whole `Request` (about eight reference counts, and as many to destroy the copy) on every
    /// request to read three of its fields.
    private init(_ request: borrowing Request, identifier: Identifier) {
        self.identifier = identifier
        self.method = request.method.rawValue
        self.path = request.uri.path
        self.headers = request.headers
    }

    /// Whether both describe the same request: the same ID, method, path and header fields.
    public static func == (lhs: RequestInfo, rhs: RequestInfo) -> Bool {
        lhs.id == rhs.id && lhs.method == rhs.method && lhs.path == rhs.path && lhs.headers == rhs.headers
    }

    /// Hashes the ID, method, path and header fields.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(method)
        hasher.combine(path)
        hasher.combine(headers)
    }
}
