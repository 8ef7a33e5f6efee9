import DICore
import DIScopes
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import ShopServer
import Synchronization
import Testing

/// The middleware where a request container's life meets something else's: child tasks of the handler, an app
/// container that closes while requests arrive or run, a handler that keeps its container past the response,
/// a streamed body that fails, and an app that serves thousands of requests.
@Suite struct RequestContainerEdgeTests {
    private typealias Fixture = RequestContainerMiddlewareTests

    @Test(.timeLimit(.minutes(1)))
    func childTasksOfAHandlerShareItsRequestScopedInstance() async throws {
        let log = ProbeLog()
        let app = try Fixture.appContainer(log: log)
        let application = Fixture.application(app) { router in
            router.get("/fan-out") { _, _ -> String in
                let own = try Container.current.resolve(Probe.self).serial
                // Sixteen child tasks inherit the binding, and ask at the same time.
                let serials = try await withThrowingTaskGroup(of: Int.self) { group in
                    for _ in 0..<16 { group.addTask { try Container.current.resolve(Probe.self).serial } }
                    return try await group.reduce(into: Set<Int>()) { $0.insert($1) }
                }
                return "\(own) \(serials.sorted())"
            }
        }
        try await application.test(.router) { client in
            let response = try await client.execute(uri: "/fan-out", method: .get)
            #expect(String(buffer: response.body) == "1 [1]")
        }
        #expect(log.made == 1)
        #expect(log.disposedSerials == [1])
    }

    @Test(.timeLimit(.minutes(1)))
    func aRequestAfterTheAppContainerClosedIsTurnedAwayWith503() async throws {
        let log = ProbeLog()
        let app = try Fixture.appContainer(log: log)
        let handled = Atomic<Int>(0)
        let application = Fixture.application(app) { router in
            router.get("/probe") { _, _ -> String in
                handled.add(1, ordering: .relaxed)
                return "\(try Container.current.resolve(Probe.self).serial)"
            }
        }
        try await application.test(.router) { client in
            let first = try await client.execute(uri: "/probe", method: .get)
            #expect(first.status == .ok)
            await app.closeAsync()
            let response = try await client.execute(uri: "/probe", method: .get)
            #expect(response.status == .serviceUnavailable)
            #expect(String(buffer: response.body).contains("The server is shutting down."))
        }
        #expect(handled.load(ordering: .relaxed) == 1)
        #expect(log.disposedSerials == [1])
    }

    /// Made outside a server, the refusal is the container's own error, which says why: not that somebody closed
    /// the request container, but that its app container is closed.
    @Test func aContainerMadeAfterTheAppClosedSaysWhyItIsRefused() throws {
        let app = try Fixture.appContainer(log: ProbeLog())
        let middleware = RequestContainerMiddleware<BasicRequestContext>(parent: app)
        app.close()
        let head = HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: "/")
        let request = Request(head: head, body: RequestBody(buffer: ByteBuffer()))
        let error = try #require(throws: RegistrationError.self) {
            _ = try middleware.makeContainer(for: request, id: "late")
        }
        #expect(error.code == .containerClosed)
        #expect(error.container == "request")
        #expect(error.description.contains("request is closed, and so is its ancestor app"), "\(error)")
        #expect(error.description.contains("close app only once nothing uses its children"), "\(error)")
    }

    /// The app container closing while a handler runs closes the request's container with it: the handler's next
    /// resolve is refused, with the reason, and the request's services are disposed once — by the app's close, not
    /// again by the middleware's.
    @Test(.timeLimit(.minutes(1)))
    func theAppClosingDuringARequestDisposesItsServicesOnce() async throws {
        let log = ProbeLog()
        let app = try Fixture.appContainer(log: log)
        let inside = Arrivals(expected: 2)
        let closed = Arrivals(expected: 2)
        let application = Fixture.application(app) { router in
            router.get("/slow") { _, _ -> String in
                let probe = try Container.current.resolve(Probe.self)
                await inside.arrive()
                await closed.arrive()
                do {
                    _ = try Container.current.resolve(Probe.self, name: "first")
                    return "resolved after close: \(probe.serial)"
                } catch let error as ResolutionError {
                    let explained = error.description.contains("request is closed, and so is its ancestor app")
                    return "\(error.code): \(explained)"
                }
            }
        }
        try await application.test(.router) { client in
            async let response = client.execute(uri: "/slow", method: .get)
            await inside.arrive()
            await app.closeAsync()
            #expect(log.disposedSerials == [1])
            await closed.arrive()
            let body = try await response.body
            #expect(String(buffer: body) == "containerClosed: true")
        }
        #expect(log.made == 1)
        #expect(log.disposedSerials == [1])
    }

    /// A handler that keeps its request's container (in a closure, a cache, a detached task) finds it closed
    /// after the response: resolving is refused, and nothing new is built for a request that is over.
    @Test(.timeLimit(.minutes(1)))
    func aContainerKeptPastItsResponseRefusesToResolve() async throws {
        let log = ProbeLog()
        let app = try Fixture.appContainer(log: log)
        let kept = Mutex<Container?>(nil)
        let application = Fixture.application(app) { router in
            router.get("/keep") { _, _ -> String in
                kept.withLock { $0 = Container.current }
                return "\(try Container.current.resolve(Probe.self).serial)"
            }
        }
        try await application.test(.router) { client in
            _ = try await client.execute(uri: "/keep", method: .get)
        }
        let container = try #require(kept.withLock { $0 })
        for service in [{ _ = try container.resolve(Probe.self) }, { _ = try container.resolve(RequestInfo.self) }] {
            let error = try #require(throws: ResolutionError.self) { try service() }
            #expect(error.code == .containerClosed)
        }
        #expect(log.made == 1)
        #expect(log.disposedSerials == [1])
        #expect(!app.isClosed)
    }

    @Test(.timeLimit(.minutes(1)))
    func aStreamedBodyThatFailsStillClosesTheContainerOnce() async throws {
        let log = ProbeLog()
        let app = try Fixture.appContainer(log: log)
        let kept = Mutex<Container?>(nil)
        let application = Fixture.application(app, closing: .afterResponseBody) { router in
            router.get("/stream") { _, _ -> Response in
                let container = Container.current
                kept.withLock { $0 = container }
                return Response(status: .ok, body: ResponseBody { writer in
                    let probe = try container.resolve(Probe.self)
                    try await writer.write(ByteBuffer(string: "\(probe.serial)"))
                    throw HTTPError(.internalServerError, message: "the body failed")
                })
            }
        }
        try await application.test(.router) { client in
            _ = try? await client.execute(uri: "/stream", method: .get)
        }
        #expect(try #require(kept.withLock { $0 }).isClosed)
        #expect(log.disposedSerials == [1])
    }

    /// A response whose streamed body is never written (the client went away) still closes its request's
    /// container, when the response is released.
    @Test(.timeLimit(.minutes(1)))
    func aResponseDroppedUnwrittenClosesItsContainer() async throws {
        let log = ProbeLog()
        let app = try Fixture.appContainer(log: log)
        let middleware = RequestContainerMiddleware<DirectContext>(parent: app, closing: .afterResponseBody)
        let kept = Mutex<Container?>(nil)
        let head = HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: "/stream")
        // A server's logger carries the request's ID, which `context.id` reads.
        var logger = Logger(label: "test")
        logger[metadataKey: "hb.request.id"] = "direct-1"
        var response: Response? = try await middleware.handle(
            Request(head: head, body: RequestBody(buffer: ByteBuffer())),
            context: DirectContext(source: DirectContext.Source(logger: logger))
        ) { _, _ in
            let container = Container.current
            kept.withLock { $0 = container }
            _ = try container.resolve(Probe.self)
            return Response(status: .ok, body: ResponseBody { writer in try await writer.finish(nil) })
        }
        let container = try #require(kept.withLock { $0 })
        #expect(response != nil)
        #expect(!container.isClosed, "closed before the body was written")
        response = nil
        // Closed by a task the released response starts: wait for it, a minute at most (the time limit).
        while !container.isClosed { try await Task.sleep(for: .milliseconds(5)) }
        while log.disposedSerials.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        #expect(log.disposedSerials == [1])
    }

    /// A long-lived app: thousands of requests, each registering its values and building and disposing its own
    /// services, leave no request container alive and nothing undisposed.
    @Test(.timeLimit(.minutes(1)))
    func thousandsOfRequestsLeaveNoRequestContainerAlive() async throws {
        let requests = 3_000
        let log = ProbeLog()
        let app = try Fixture.appContainer(log: log)
        let sampled = Mutex<[WeakContainer]>([])
        let application = Fixture.application(app) { router in
            router.get("/probe") { _, _ -> String in
                let probe = try Container.current.resolve(Probe.self)
                if probe.serial % 100 == 0 { sampled.withLock { $0.append(WeakContainer(Container.current)) } }
                return "\(probe.serial)"
            }
        }
        try await application.test(.router) { client in
            for _ in 0..<requests {
                let response = try await client.execute(uri: "/probe", method: .get)
                #expect(response.status == .ok)
            }
        }
        #expect(log.made == requests)
        #expect(log.disposedSerials == Array(1...requests))
        let containers = sampled.withLock { $0 }
        #expect(containers.count == requests / 100)
        #expect(containers.allSatisfy { $0.container == nil }, "a request container outlived its request")
        app.close()
        #expect(log.disposedSerials.count == requests)
    }
}

/// A request container seen without keeping it alive.
private final class WeakContainer: Sendable {
    nonisolated(unsafe) weak var container: Container?

    init(_ container: Container) { self.container = container }
}

/// A request context made without a server, for calling a middleware's `handle` directly.
private struct DirectContext: RequestContext {
    struct Source: RequestContextSource {
        let logger: Logger
    }

    var coreContext: CoreRequestContextStorage

    init(source: Source) {
        coreContext = CoreRequestContextStorage(source: source)
    }
}
