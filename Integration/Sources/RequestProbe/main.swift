// request-probe: what shop-server's container does per request, without HTTP, so that an instruction counter
// can measure it exactly. Each mode runs one request's container work N times: the request container made by
// the server's own middleware (its values registered), the route's endpoint made inside `withContainer` (its
// `@Inject` properties resolved from the request), the container closed.
//
//   swift build -c release --package-path Integration --product request-probe
//   SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind request-probe add 1000   # and 2000: / 1000 per request
//
// Modes: lifecycle (make, register, close; nothing resolved), products, add, health, checkout (the services
// each route's endpoint resolves; checkout's service is resolved with `resolveAsync`, after one checkout
// before the count has connected the payment gateway), hand-add (what the hand-wired server makes for
// POST /cart/items instead, and for POST /checkout too: its checkout service is made once, at start-up),
// scoped-add (what the hand-scoped server does for it: a `HandScope` made, bound and closed around the same),
// minimal-add (the same from a `MinimalContainer`, as the minimal-container server's: its scope made, bound,
// asked for the catalog, the cart and the unit of work, and closed). The handlers' own work is left out: it is
// the same in the hand-wired server. Valgrind 3.19 stops with an internal error in checkout mode (the only mode
// that awaits an actor, the payment gateway): time it with `time`.
//
//   request-probe time add 20000 2     # wall clock: 20,000 requests on each of 2 tasks, ns per request
//   PROBE_EVICT_KB=8192 request-probe time add 20000 1   # the same, with caches cold at every request
//
// `PROBE_EVICT_KB=N` writes N KB of other memory after every request, as the kernel and the HTTP stack do
// between a server's requests, so that the next request finds its objects out of the caches. Eviction costs
// every mode the same: `idle` (nothing but the eviction) measures it, to subtract. Counted by a cache
// simulator, it tells how many cache lines of code and data one request touches (`Integration/cold-lines.sh`).
import DICore
import DIPropertyWrappers
import DIScopes
import HTTPTypes
import Hummingbird
import Cart
import ShopApp
import ShopCore
import ShopServer
import ProbeSupport
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

var arguments = CommandLine.arguments.dropFirst()
// `time`: the same work on THREADS concurrent tasks, timed by the wall clock (ns per request), to see what
// sharing the server container between threads costs. Noisy: compare builds in alternated runs.
let timed = arguments.first == "time"
if timed { arguments = arguments.dropFirst() }
let modes = ["lifecycle", "products", "add", "health", "checkout", "hand-add", "scoped-add", "minimal-add", "idle"]
guard let mode = arguments.first, modes.contains(mode),
      let count = arguments.dropFirst().first.map({ Int($0) }) ?? 1000,
      let threads = arguments.dropFirst(2).first.map({ Int($0) }) ?? 1
else {
    print("usage: request-probe [time] \(modes.joined(separator: "|")) [COUNT] [THREADS (time only)]")
    exit(2)
}

@Sendable @inline(never) func use<T>(_ value: T) { withExtendedLifetime(value) {} }

let server = try await ShopServer.make(ShopServer.Options(port: 0))
guard let middleware = server.requestContainers else { fatalError("the container server has a middleware") }
var head = HTTPRequest(method: .post, scheme: "http", authority: "localhost", path: "/cart/items")
head.headerFields[ShopServer.userHeader] = "probe"
let request = Request(head: head, body: RequestBody(buffer: ByteBuffer()))

// What the hand-wired server does for POST /cart/items besides the handler: the request's values, the cart
// and the unit of work made by hand, the unit of work disposed. `add` minus `hand-add` is what the container
// adds to that route.
let carts = try server.server!.resolve(CartStore.self)
let pricing = try server.server!.resolve(CartPricing.self)
let journal = try server.server!.resolve(UnitOfWorkJournal.self)

@Sendable func serveByHand(_ index: Int) {
    let work = UnitOfWork(request: RequestInfo(request, id: "probe-\(index)"), journal: journal)
    let cart = SessionCart(
        session: UserSession(user: request.headers[ShopServer.userHeader] ?? "guest"), store: carts, pricing: pricing
    )
    use((cart, work))
    work.dispose()
}

// What the hand-scoped server does for POST /cart/items besides the handler: a request scope written by hand
// for this graph, made with the request's values, bound, asked for the cart and the unit of work, and closed.
// `scoped-add` minus `hand-add` is what the shape of a request container costs with no container in it.
let services = HandScope.Services(carts: carts, pricing: pricing, journal: journal)

@Sendable func serveScoped(_ index: Int) async throws {
    let scope = HandScope(request: RequestInfo(request, id: "probe-\(index)"), services: services)
    // Bound as the middleware binds it.
    try await HandScope.bind(scope) {
        use((HandScope.bound.cart, HandScope.bound.unitOfWork))
    }
    scope.close()
}

let minimal = MinimalContainer.shop(
    catalog: try server.server!.resolve((any ProductCatalog).self), carts: carts, pricing: pricing, journal: journal
)

@Sendable func serveMinimal(_ index: Int) async throws {
    let scope = MinimalContainer.Scope(minimal, request: RequestInfo(request, id: "probe-\(index)"))
    try await MinimalContainer.Scope.bind(scope) {
        let bound = MinimalContainer.Scope.bound
        use((try bound.resolve((any ProductCatalog).self), try bound.resolve((any ShoppingCart).self),
             try bound.resolve(UnitOfWork.self)))
    }
    scope.close()
}

@Sendable func serve(_ index: Int) async throws {
    if mode == "idle" { return }
    if mode == "minimal-add" { return try await serveMinimal(index) }
    if mode == "hand-add" { return serveByHand(index) }
    if mode == "scoped-add" { return try await serveScoped(index) }
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
        case "checkout":
            let endpoint = CheckoutEndpoint()
            let checkout = try await Container.current.resolveAsync((any CheckoutService).self)
            use((endpoint.cart, endpoint.work, checkout))
        default:
            break
        }
    }
    await container.closeAsync()
}

/// Serves `count` requests numbered from `first`, evicting after each when `PROBE_EVICT_KB` asks for it.
@Sendable func serve(_ count: Int, from first: Int) async throws {
    let eviction = CacheEviction()
    for index in first..<first + count {
        try await serve(index)
        eviction.run()
    }
}

if timed {
    for round in 1...3 {
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<threads {
                group.addTask { try await serve(count, from: task * count) }
            }
            try await group.waitForAll()
        }
        let elapsed = ContinuousClock.now - start
        let nanoseconds = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
        let perRequest = Int(nanoseconds / Double(count))
        print("round \(round): \(mode) on \(threads) tasks: \(perRequest) ns per request per task")
    }
} else {
    // The first checkout connects the payment gateway, once for the process: done before the count.
    if mode == "checkout" { try await serve(-1) }
    try await serve(count, from: 0)
}
server.shop?.close()
