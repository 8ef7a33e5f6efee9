// A Hummingbird 2 middleware that gives every request its own child of the app container. Self-contained
// apart from `RequestInfo.swift`: copy both files into an app that depends on DIToolkit and Hummingbird.
import DICore
import DIScopes
import HTTPTypes
import Hummingbird

/// Gives every request its own container: a child of the app container, tagged `request`, bound as
/// `Container.current` while the handler runs, and closed when the response is done.
///
/// ```swift
/// let app = Container(name: "app")
/// try app.autoregister(UnitOfWork.self, scope: .matching("request"), initializer: UnitOfWork.init)
///
/// let router = Router()
/// router.add(middleware: RequestContainerMiddleware(parent: app) { request, container in
///     let user = request.headers[.init("X-User")!] ?? "anonymous"
///     try container.register(value: CurrentUser(name: user))
/// })
/// router.post("/checkout") { request, context in
///     let work = try Container.current.resolve(UnitOfWork.self)   // this request's, nobody else's
///     …
/// }
/// ```
///
/// For each request the middleware
/// 1. makes `parent.child(name: "request", tags: ["request"])`, so services registered in the app with
///    `.matching("request")` get one instance per request, held and disposed by that child;
/// 2. registers the request's values in it: a ``RequestInfo`` (ID, method, path, header fields), as a value,
///    and whatever `register` adds (a tenant, …). Something derived from the request — the user from a
///    header — costs every request nothing when the app declares it once instead, as a `.matching("request")`
///    factory that takes the ``RequestInfo``: only the requests that ask for it build it;
/// 3. runs the rest of the chain inside `withContainer(child)`, so `Container.current`, `@Inject` and
///    `@LazyInject` resolve from the request's container, in the handler and in every child task it starts;
/// 4. closes the child (`closeAsync()`) when the response is done — also when the handler throws — which
///    disposes its `Disposable` and `AsyncDisposable` instances, newest first. A unit of work that commits in
///    `dispose()` once it was marked complete, and rolls back otherwise, thereby rolls back every request
///    whose handler threw.
///
/// ## When the response is done
///
/// A handler returns a `Response` whose body Hummingbird writes afterwards. With the default
/// ``Closing/whenHandlerReturns`` the container is closed as soon as the handler returns, before a byte is
/// sent: a body built from a buffer (JSON from `ResponseEncodable`, a string) is complete by then, a unit of
/// work has committed before the client can see the status, and Hummingbird keeps its single-write fast path
/// for buffered bodies. A body that is **streamed** after the handler returns must not resolve request
/// services while it writes; resolve what it needs before returning, or choose
/// ``Closing/afterResponseBody``: the body is then wrapped so that the request container stays open until
/// the last byte is written or the write fails, and is closed then. (The body runs after `withContainer`
/// has returned, so capture `Container.current` in the handler and resolve from that.) If the server drops
/// the response without writing it (the client went away), the container is closed when the response is
/// released.
///
/// ## When the app container closes
///
/// Closing the app container (graceful shutdown, after the server has drained) closes any request container
/// still open, disposing its services once; the handler's next resolve is refused with `containerClosed`. A
/// request that arrives once the app container is closed is answered with 503 Service Unavailable.
///
/// Put the middleware before the routes that need it (`router.add(middleware:)` or a group's
/// `add(middleware:)`); middleware added after it also runs inside the request's container.
public struct RequestContainerMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Registers a request's own values in its container; see ``init(parent:name:tags:closing:register:)``.
    public typealias Register = @Sendable (Request, Container) throws -> Void

    /// When the request's container is closed.
    public enum Closing: Sendable {
        /// When the handler returns its response or throws: right for buffered bodies (the default).
        case whenHandlerReturns
        /// After the response body has been written, for bodies streamed by a closure that resolves request
        /// services (from the request container it captured) while it writes.
        case afterResponseBody
    }

    /// The container every request container is a child of.
    public let parent: Container
    /// The name of every request container, printed in diagnostics.
    public let name: String
    /// The tags each request container carries, which `.matching(tag)` services look for.
    public let tags: Set<String>
    /// When each request container is closed.
    public let closing: Closing
    private let register: Register

    /// Creates the middleware for the app container `parent`.
    ///
    /// ```swift
    /// router.add(middleware: RequestContainerMiddleware(parent: app) { request, container in
    ///     let user = request.headers[.init("X-User")!] ?? "anonymous"
    ///     try container.register(value: CurrentUser(name: user))
    /// })
    /// ```
    ///
    /// - Parameters:
    ///   - parent: The app container; each request container is its child.
    ///   - name: The name of the request containers, printed in diagnostics; `"request"` by default.
    ///   - tags: The tags of the request containers; `["request"]` by default. Add a tag when services
    ///     that another lifetime tag looks for should also live once per request (`"session"`, say).
    ///   - closing: When a request container is closed; see "When the response is done" above.
    ///   - register: Registers the request's own values in its container, after ``RequestInfo``. An error it
    ///     throws fails the request like a handler's error.
    public init(
        parent: Container,
        name: String = "request",
        tags: Set<String> = ["request"],
        closing: Closing = .whenHandlerReturns,
        register: @escaping Register = { _, _ in }
    ) {
        self.parent = parent
        self.name = name
        self.tags = tags
        self.closing = closing
        self.register = register
    }

    /// Runs the rest of the chain with a new request container bound as `Container.current`, and closes the
    /// container when the response is done.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - context: The request's context; its `id` becomes ``RequestInfo/id``.
    ///   - next: The rest of the chain.
    /// - Returns: The response of the rest of the chain.
    /// - Throws: What the rest of the chain throws, once the container is closed; the `RegistrationError` of
    ///   registering the request's values; or, once the app container is closed, an `HTTPError` with status
    ///   503 (Service Unavailable), so that a request arriving during shutdown is told to try again.
    public func handle(
        _ request: Request,
        context: Context,
        // `@concurrent` spells out what Hummingbird's protocol declares, also where the module turns on
        // NonisolatedNonsendingByDefault (which would otherwise make `next` a nonsending function type).
        next: @concurrent (Request, Context) async throws -> Response
    ) async throws -> Response {
        let container: Container
        do {
            container = try makeContainer(for: request, info: RequestInfo(request, context: context))
        } catch let error as RegistrationError where error.code == .containerClosed && parent.isClosed {
            // The app container closed while requests still arrive (it is closed after the server drains when
            // `AppContainerService` closes it): a client may try again elsewhere.
            throw HTTPError(.serviceUnavailable, message: "The server is shutting down.")
        }
        switch closing {
        case .whenHandlerReturns:
            let response: Response
            do {
                response = try await withContainer(container) { try await next(request, context) }
            } catch {
                await container.closeAsync()
                throw error
            }
            await container.closeAsync()
            return response
        case .afterResponseBody:
            let closer = RequestContainerCloser(container)
            var response: Response
            do {
                response = try await withContainer(container) { try await next(request, context) }
            } catch {
                await closer.close()
                throw error
            }
            let body = response.body
            response.body = ResponseBody(contentLength: body.contentLength) { writer in
                do {
                    try await body.write(writer)
                } catch {
                    await closer.close()
                    throw error
                }
                await closer.close()
            }
            return response
        }
    }

    /// Makes the container of one request: a child of ``parent`` tagged ``tags``, with the request's values
    /// registered. The caller closes it.
    ///
    /// `handle` uses it for every request; call it yourself to check the graph a request sees before the
    /// server starts:
    ///
    /// ```swift
    /// let probe = try middleware.makeContainer(for: Request(head: .init(method: .get, scheme: "http",
    ///     authority: "localhost", path: "/"), body: .init(buffer: .init())), id: "validation")
    /// let report = app.validate()       // the app's subtree now includes one request container
    /// probe.close()
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request whose values are registered.
    ///   - id: The request's ID.
    /// - Returns: The open request container.
    /// - Throws: The `RegistrationError` of registering the values, or what `register` throws; the container
    ///   is closed before the error is thrown.
    public func makeContainer(for request: Request, id: String) throws -> Container {
        try makeContainer(for: request, info: RequestInfo(request, id: id))
    }

    private func makeContainer(for request: Request, info: RequestInfo) throws -> Container {
        let container = parent.child(name: name, tags: tags)
        do {
            try container.register(value: info)
            try register(request, container)
        } catch {
            container.close()
            throw error
        }
        return container
    }
}

/// Closes a request container once: when the streamed body is written, or when the response holding the body
/// is released unwritten.
private final class RequestContainerCloser: Sendable {
    let container: Container

    init(_ container: Container) { self.container = container }

    func close() async { await container.closeAsync() }

    deinit {
        // The response was dropped before its body was written; nothing will await this, so close in a task.
        guard !container.isClosed else { return }
        let container = self.container
        Task { await container.closeAsync() }
    }
}
