// server-probe: both shop servers answering load.sh's mix in one process, through Hummingbird's own
// responder (router, middleware, handlers, JSON), without sockets — what `Integration/load.sh` compares, minus
// the kernel, the HTTP parser and wrk, which cost both servers the same and make every load run noisy.
//
//   swift build -c release --package-path Integration --product server-probe
//   server-probe                       # 5 rounds of 100,000 requests per server, alternated
//   server-probe 9 50000               # ROUNDS COUNT
//   PROBE_EVICT_KB=2048 server-probe 3 20000   # caches emptied after every request, as between a server's
//   server-probe middleware            # routes that only answer `ok`, with the middleware against without
//
// Each request gets a context as Hummingbird's application makes one (a logger carrying `hb.request.id`), and
// the container server's middleware makes, fills and closes a request container for it, as under load. Prints
// nanoseconds per request of each server in each round, and the throughput ratio (hand-wired time over
// container time: what `load.sh` would read if nothing else ran on the machine). Wall-clock, one task:
// alternated rounds, read the median. Fails on any response that is not 2xx.
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOEmbedded
import ProbeSupport
import ShopServer

var words = CommandLine.arguments.dropFirst()
/// `middleware`: a route that answers a string, with and without the request-container middleware.
let middlewareOnly = words.first == "middleware"
if middlewareOnly { words = words.dropFirst() }
let arguments = words.map { Int($0) }
guard arguments.allSatisfy({ ($0 ?? 0) > 0 }), arguments.count <= 2 else {
    print("usage: server-probe [middleware] [ROUNDS] [COUNT]")
    exit(2)
}
let rounds = arguments.first.flatMap { $0 } ?? 5
let count = arguments.dropFirst().first.flatMap { $0 } ?? 100_000
/// A request ID formatted only when read, as Hummingbird's own.
struct ProbeRequestID: CustomStringConvertible, Sendable {
    let value: Int
    var description: String { String(value, radix: 16) }
}

/// One connection's cycle of `Integration/Load/mix.lua`: 4 × `GET /products`, 3 × `POST /cart/items`,
/// 2 × `GET /health`, 1 × `POST /checkout`, for one user.
let mix: [(head: HTTPRequest, body: String)] = {
    let products = ["espresso-beans", "grinder", "cup"]
    let sequence = ["products", "add", "products", "health", "add", "products", "add", "products", "health", "checkout"]
    return sequence.enumerated().map { position, kind in
        let method: HTTPRequest.Method = kind == "add" || kind == "checkout" ? .post : .get
        let path = ["add": "/cart/items", "checkout": "/checkout", "health": "/health"][kind] ?? "/products"
        var head = HTTPRequest(method: method, scheme: "http", authority: "localhost", path: path)
        head.headerFields[ShopServer.userHeader] = "probe"
        guard kind == "add" else { return (head, "") }
        head.headerFields[.contentType] = "application/json"
        // Lua's `products[(i % #products) + 1]` with `i` from 1: the same product per position.
        return (head, "{\"productID\":\"\(products[(position + 1) % products.count])\",\"quantity\":1}")
    }
}()

/// Answers `count` requests of the mix with `responder`; nanoseconds per request.
@concurrent func serve(
    _ responder: RouterResponder<BasicRequestContext>, _ count: Int, firstID: Int
) async throws -> Double {
    let channel = EmbeddedChannel()
    // A handler that keeps metadata, as the application's does: the middleware reads `hb.request.id` from it.
    var logger = Logger(label: "server-probe")
    logger.logLevel = .critical
    let eviction = CacheEviction()
    let start = ContinuousClock.now
    for index in 0..<count {
        let (head, body) = mix[index % mix.count]
        var requestLogger = logger
        requestLogger[metadataKey: "hb.request.id"] = .stringConvertible(ProbeRequestID(value: firstID + index))
        let context = BasicRequestContext(source: .init(channel: channel, logger: requestLogger))
        let request = Request(head: head, body: RequestBody(buffer: ByteBuffer(string: body)))
        let response = try await responder.respond(to: request, context: context)
        guard (200..<300).contains(response.status.code) else {
            print("server-probe: \(head.method) \(head.path ?? "") answered \(response.status)")
            exit(1)
        }
        eviction.run()
    }
    let elapsed = ContinuousClock.now - start
    let nanoseconds = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
    return nanoseconds / Double(count)
}

let quiet = Logger(label: "server-probe") { _ in SwiftLogNoOpLogHandler() }
let containerServer = try await ShopServer.make(ShopServer.Options(port: 0, wiring: .container, logger: quiet))
let container: RouterResponder<BasicRequestContext>
let handWired: RouterResponder<BasicRequestContext>
if middlewareOnly {
    // Every path answers `ok`: what is left of the difference is the middleware's request container.
    let withMiddleware = Router()
    withMiddleware.add(middleware: containerServer.requestContainers!)
    let without = Router()
    for router in [withMiddleware, without] {
        router.get("/{path}") { _, _ in "ok" }
        router.post("/{path}/{more}") { _, _ in "ok" }
        router.post("/{path}") { _, _ in "ok" }
    }
    container = withMiddleware.buildResponder()
    handWired = without.buildResponder()
} else {
    container = containerServer.application.responder
    handWired = try await ShopServer.make(ShopServer.Options(port: 0, wiring: .handWired, logger: quiet))
        .application.responder
}
// Warm-up: the first checkout connects the payment gateway; every route's code is loaded.
_ = try await serve(container, 2 * mix.count, firstID: 0)
_ = try await serve(handWired, 2 * mix.count, firstID: 0)

let names: (container: String, handWired: String) =
    middlewareOnly ? ("middleware", "none") : ("container", "hand-wired")
/// `value` in nanoseconds, or as a ratio, rounded as printed.
func format(_ value: Double, _ style: String) -> String { String(format: style, value) }

var ratios: [Double] = []
var differences: [Double] = []
for round in 1...rounds {
    let containerTime = try await serve(container, count, firstID: round * count)
    let handWiredTime = try await serve(handWired, count, firstID: round * count)
    ratios.append(handWiredTime / containerTime)
    differences.append(containerTime - handWiredTime)
    print(
        "round \(round): \(names.container) \(format(containerTime, "%.0f")) ns, \(names.handWired)",
        "\(format(handWiredTime, "%.0f")) ns per request: the container \(format(differences.last!, "%+.0f")) ns,",
        "ratio \(format(ratios.last!, "%.3f"))"
    )
}
print(
    "median: the container \(format(differences.sorted()[rounds / 2], "%+.0f")) ns per request, throughput ratio",
    "(\(names.container) / \(names.handWired)) \(format(ratios.sorted()[rounds / 2], "%.3f"))"
)
