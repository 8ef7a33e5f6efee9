import DICore
import DIScopes
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ShopServer
import Synchronization
import Testing

/// The middleware on its own, in a purpose-built router: a fresh app container per test, so the tests run in
/// parallel.
@Suite struct RequestContainerMiddlewareTests {
    /// An app container with `Probe` registered per request (`.matching("request")`), unnamed and under the
    /// names "first" and "second".
    static func appContainer(log: ProbeLog) throws -> Container {
        let app = Container(name: "app")
        try app.register(Probe.self, scope: .matching("request")) { _ in Probe(log: log) }
        for label in ["first", "second"] {
            try app.register(Probe.self, name: label, scope: .matching("request")) { _ in
                Probe(label: label, log: log)
            }
        }
        return app
    }

    static func application(
        _ app: Container,
        closing: RequestContainerMiddleware<BasicRequestContext>.Closing = .whenHandlerReturns,
        routes: (Router<BasicRequestContext>) -> Void
    ) -> some ApplicationProtocol {
        let router = Router()
        router.add(middleware: RequestContainerMiddleware(parent: app, closing: closing) { request, container in
            let user = request.headers[HTTPField.Name("X-User")!] ?? "anonymous"
            try container.register(String.self, name: "user", scope: .singleton) { _ in user }
        })
        routes(router)
        return Application(router: router)
    }

    @Test(.timeLimit(.minutes(1)), arguments: [1, 2, 3, 16])
    func concurrentRequestsNeverShareARequestScopedInstance(requests: Int) async throws {
        let log = ProbeLog()
        let app = try Self.appContainer(log: log)
        let arrivals = Arrivals(expected: requests)
        let application = Self.application(app) { router in
            router.get("/probe") { _, _ -> String in
                let first = try Container.current.resolve(Probe.self)
                // Every request is inside its handler, holding its probe, before any of them answers.
                await arrivals.arrive()
                let again = try Container.current.resolve(Probe.self)
                guard first === again else { throw HTTPError(.internalServerError, message: "two probes") }
                return "\(first.serial)"
            }
        }
        let serials = try await application.test(.router) { client in
            try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<requests {
                    group.addTask {
                        let response = try await client.execute(uri: "/probe", method: .get)
                        #expect(response.status == .ok)
                        return String(buffer: response.body)
                    }
                }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
        }
        #expect(Set(serials).count == requests)
        #expect(log.made == requests)
        #expect(log.disposedSerials.sorted() == Array(1...requests))
    }

    /// A container made outside a server (start-up validation does) carries the request's values with the ID
    /// given, and the request's values in the container `register` adds to it.
    @Test func aContainerMadeForARequestCarriesItsValuesWithTheGivenID() throws {
        let app = try Self.appContainer(log: ProbeLog())
        let middleware = RequestContainerMiddleware<BasicRequestContext>(parent: app) { request, container in
            try container.register(String.self, name: "user", value: request.headers[HTTPField.Name("X-User")!] ?? "-")
        }
        var head = HTTPRequest(method: .post, scheme: "http", authority: "localhost", path: "/checkout?coupon=1")
        head.headerFields[HTTPField.Name("X-User")!] = "ada"
        let container = try middleware.makeContainer(
            for: Request(head: head, body: RequestBody(buffer: ByteBuffer())), id: "validation"
        )
        let info = try container.resolve(RequestInfo.self)
        #expect(info == RequestInfo(id: "validation", method: "POST", path: "/checkout", headers: head.headerFields))
        #expect(info.id == "validation")
        #expect(try container.resolve(String.self, name: "user") == "ada")
        #expect(container.tags == ["request"])
        container.close()
    }

    @Test(.timeLimit(.minutes(1)))
    func handlerSeesItsRequestContainerAsCurrentAndItIsClosedAfterwards() async throws {
        let app = try Self.appContainer(log: ProbeLog())
        let seen = Mutex<[Container]>([])
        let application = Self.application(app) { router in
            router.get("/who") { request, context -> String in
                let container = Container.current
                seen.withLock { $0.append(container) }
                let info = try container.resolve(RequestInfo.self)
                let user = try container.resolve(String.self, name: "user")
                // The ID is read from the context's logger only now; the info equals one made from the text.
                let same = info == RequestInfo(id: context.id, method: "GET", path: "/who", headers: request.headers)
                let header = info.headers[HTTPField.Name("X-User")!] ?? "-"
                let values = "\(info.method) \(info.path) \(info.id == context.id) \(same) \(header)"
                return "\(container.tags.sorted()) \(values) \(user)"
            }
        }
        try await application.test(.router) { client in
            let response = try await client.execute(
                uri: "/who?x=1", method: .get, headers: [HTTPField.Name("X-User")!: "ada"]
            )
            #expect(String(buffer: response.body) == #"["request"] GET /who true true ada ada"#)
        }
        let containers = seen.withLock { $0 }
        let container = try #require(containers.first)
        #expect(containers.count == 1)
        #expect(container.parent === app)
        #expect(container.isClosed)
        #expect(!app.isClosed)
    }

    @Test(.timeLimit(.minutes(1)))
    func requestServicesAreDisposedNewestFirstWhenTheHandlerThrows() async throws {
        let log = ProbeLog()
        let app = try Self.appContainer(log: log)
        let application = Self.application(app) { router in
            router.get("/fail") { _, _ -> String in
                _ = try Container.current.resolve(Probe.self, name: "first")
                _ = try Container.current.resolve(Probe.self, name: "second")
                throw HTTPError(.conflict, message: "the handler failed")
            }
        }
        try await application.test(.router) { client in
            let response = try await client.execute(uri: "/fail", method: .get)
            #expect(response.status == .conflict)
        }
        #expect(log.disposedLabels == ["second", "first"])
    }

    @Test(.timeLimit(.minutes(1)))
    func afterResponseBodyKeepsTheContainerOpenUntilTheStreamedBodyIsWritten() async throws {
        let log = ProbeLog()
        let app = try Self.appContainer(log: log)
        let application = Self.application(app, closing: .afterResponseBody) { router in
            router.get("/stream") { _, _ -> Response in
                let container = Container.current
                return Response(status: .ok, body: ResponseBody { writer in
                    // Runs after the handler returned: the request container is still open.
                    let probe = try container.resolve(Probe.self)
                    let disposedSoFar = log.disposedSerials.count
                    try await writer.write(ByteBuffer(string: "\(probe.serial) \(disposedSoFar)"))
                    try await writer.finish(nil)
                })
            }
        }
        try await application.test(.router) { client in
            let response = try await client.execute(uri: "/stream", method: .get)
            #expect(String(buffer: response.body) == "1 0")
        }
        #expect(log.disposedSerials == [1])
    }

    @Test(.timeLimit(.minutes(1)))
    func whenHandlerReturnsClosesBeforeAStreamedBodyIsWritten() async throws {
        let log = ProbeLog()
        let app = try Self.appContainer(log: log)
        let application = Self.application(app) { router in
            router.get("/stream") { _, _ -> Response in
                let container = Container.current
                return Response(status: .ok, body: ResponseBody { writer in
                    let closed = container.isClosed
                    try await writer.write(ByteBuffer(string: "closed: \(closed)"))
                    try await writer.finish(nil)
                })
            }
        }
        try await application.test(.router) { client in
            let response = try await client.execute(uri: "/stream", method: .get)
            #expect(String(buffer: response.body) == "closed: true")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aFailingRegisterHookFailsTheRequestAndLeavesNoOpenContainer() async throws {
        let app = Container(name: "app")
        let made = Mutex<[Container]>([])
        let router = Router()
        router.add(middleware: RequestContainerMiddleware(parent: app) { _, container in
            made.withLock { $0.append(container) }
            throw HTTPError(.unauthorized, message: "no user")
        })
        router.get("/") { _, _ in "unreachable" }
        try await Application(router: router).test(.router) { client in
            let response = try await client.execute(uri: "/", method: .get)
            #expect(response.status == .unauthorized)
        }
        let container = try #require(made.withLock { $0.first })
        #expect(container.isClosed)
    }
}
