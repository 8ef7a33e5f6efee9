// request-probe: what shop-server's container does per request, without HTTP, so that an instruction counter
// can measure it exactly. Each mode runs one request's container work N times: the request container made by
// the server's own middleware (its values registered), the route's endpoint made inside `withContainer` (its
// `@Inject` properties resolved from the request), the container closed.
//
//   swift build -c release --package-path Integration --product request-probe
//   valgrind --tool=callgrind request-probe add 1000      # and 2000: the difference / 1000 is one request
//
// Modes: lifecycle (make, register, close; nothing resolved), products, add, health (the services each route's
// endpoint resolves). The handlers' own work is left out: it is the same in the hand-wired server. Checkout is
// left out too: its first resolve connects the payment gateway through an actor, and valgrind cannot follow
// the hop to the concurrent executor's threads.
import DICore
import DIPropertyWrappers
import DIScopes
import HTTPTypes
import Hummingbird
import ShopApp
import ShopCore
import ShopServer
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

let arguments = CommandLine.arguments.dropFirst()
let modes = ["lifecycle", "products", "add", "health"]
guard let mode = arguments.first, modes.contains(mode),
      let count = arguments.dropFirst().first.map({ Int($0) }) ?? 1000
else {
    print("usage: request-probe \(modes.joined(separator: "|")) [COUNT]")
    exit(2)
}

@inline(never) func use<T>(_ value: T) { withExtendedLifetime(value) {} }

let server = try await ShopServer.make(ShopServer.Options(port: 0))
guard let middleware = server.requestContainers else { fatalError("the container server has a middleware") }
var head = HTTPRequest(method: .post, scheme: "http", authority: "localhost", path: "/cart/items")
head.headerFields[ShopServer.userHeader] = "probe"
let request = Request(head: head, body: RequestBody(buffer: ByteBuffer()))

for index in 0..<count {
    let container = try middleware.makeContainer(for: request, id: "probe-\(index)")
    try await withContainer(container) {
        switch mode {
        case "products":
            use(ProductsEndpoint().catalog)
        case "add":
            let endpoint = CartItemsEndpoint()
            use((endpoint.catalog, endpoint.cart, endpoint.work))
        case "health":
            use(HealthEndpoint().journal)
        default:
            break
        }
    }
    await container.closeAsync()
}
server.shop?.close()
