import Cart
import Catalog
import Checkout
import DICore
import DIDiagnostics
import DIScopes
import HTTPTypes
import Hummingbird
import Logging
import ShopApp
import ShopCore

/// The shop over HTTP on Hummingbird 2: `GET /products`, `POST /cart/items`, `POST /checkout` and
/// `GET /health`, JSON in and out, the user named by the `X-User` header.
///
/// ```swift
/// let server = try await ShopServer.make(ShopServer.Options(port: 8080))
/// try await server.application.runService()     // SIGTERM/SIGINT: drain, then close the containers
/// ```
///
/// With ``Wiring/container`` (the default) the server builds the shop's tree with `ShopApp.makeContainer`,
/// adds a `server` child with the three feature assemblies and ``ServerAssembly`` (a request needs several
/// features at once: adding to the cart looks the product up in the catalog), and gives every request its
/// own child of `server` through ``RequestContainerMiddleware``, tagged `request` (the unit of work) and
/// `session` (the user's cart). Before it starts it validates the graph a request sees and refuses to start
/// when the report has errors (``StartupError``); on graceful shutdown ``AppContainerService`` closes the
/// tree. With ``Wiring/handWired`` the same handlers get services built by hand, without a container: the
/// baseline the load test compares with.
public struct ShopServer: Sendable {
    /// The tag of request containers, which the unit of work's `.matching` lifetime looks for.
    public static let requestTag = "request"
    /// The header naming the user; `guest` when it is missing.
    public static let userHeader = HTTPField.Name("X-User")!

    /// How the handlers get their services.
    public enum Wiring: String, Sendable, CaseIterable {
        /// From a request container, child of the app's tree (the product).
        case container
        /// Built by hand at start-up and per request, without a container (the load test's baseline).
        case handWired = "hand-wired"
        /// Built by hand, with the per-request ones in a ``HandScope`` that a middleware makes, binds and
        /// closes for every request: the request container's shape without a container (the load test's
        /// floor, `load.sh --floor`).
        case handScoped = "hand-scoped"
        /// Built by hand, handed out by a ``MinimalContainer``: the least a general container does, services
        /// found by type and kept type-erased, with a scope per request (`load.sh --minimal`).
        case minimalContainer = "minimal-container"
    }

    /// How to build the server.
    public struct Options: Sendable {
        /// The address to listen on.
        public var host: String
        /// The port to listen on; 0 picks a free one.
        public var port: Int
        /// How the handlers get their services.
        public var wiring: Wiring
        /// The journal the units of work record in; the tests pass one that keeps request IDs.
        public var journal: UnitOfWorkJournal
        /// Registers more services in the `server` container after the assemblies (for tests); ignored by
        /// the hand-wired server.
        public var configure: @Sendable (Container) throws -> Void
        /// The server's logger; the shop's services log to it at `debug`.
        public var logger: Logger
        /// Work the hand-wired server adds to every request, to calibrate the load test
        /// (`Integration/load.sh --calibrate`); `nil`, none, by default. Ignored by the container server.
        public var syntheticWork: SyntheticWork?

        /// Makes the options.
        ///
        /// ```swift
        /// let options = ShopServer.Options(port: 8080, wiring: .handWired)
        /// ```
        ///
        /// - Parameters:
        ///   - host: The address to listen on.
        ///   - port: The port to listen on.
        ///   - wiring: How the handlers get their services.
        ///   - journal: The journal the units of work record in.
        ///   - logger: The server's logger.
        ///   - configure: Registers more services in the `server` container.
        public init(
            host: String = "127.0.0.1",
            port: Int = 8080,
            wiring: Wiring = .container,
            journal: UnitOfWorkJournal = UnitOfWorkJournal(),
            logger: Logger = Logger(label: "shop-server"),
            configure: @escaping @Sendable (Container) throws -> Void = { _ in }
        ) {
            self.host = host
            self.port = port
            self.wiring = wiring
            self.journal = journal
            self.logger = logger
            self.configure = configure
        }
    }

    /// The application to run or test.
    public let application: Application<RouterResponder<BasicRequestContext>>
    /// The shop's container tree; `nil` for the hand-wired server.
    public let shop: ShopApp?
    /// The parent of every request container; `nil` for the hand-wired server.
    public let server: Container?
    /// The middleware that makes every request's container; `nil` for the hand-wired server.
    package let requestContainers: RequestContainerMiddleware<BasicRequestContext>?

    /// Builds the server: its containers (validated) or its hand-wired services, its routes and its
    /// application.
    ///
    /// - Parameter options: How to build it.
    /// - Returns: The server, not yet running.
    /// - Throws: ``StartupError`` with the validation report when the graph a request sees has errors; a
    ///   `RegistrationError` when a registration is refused; the hand-wired server's payment session error.
    public static func make(_ options: Options) async throws -> ShopServer {
        switch options.wiring {
        case .container: try makeWithContainers(options)
        case .handWired, .handScoped, .minimalContainer: try await makeHandWired(options)
        }
    }

    private static func configuration(_ options: Options) -> ApplicationConfiguration {
        ApplicationConfiguration(address: .hostname(options.host, port: options.port), serverName: "shop-server")
    }

    // MARK: - Container wiring

    private static func makeWithContainers(_ options: Options) throws -> ShopServer {
        let shop = try ShopApp.makeContainer(logger: SwiftLogShopLogger(options.logger), http: ServerBackend())
        do {
            // The shop's in-memory store keeps every order; a long-running server keeps the recent ones.
            try shop.app.autoregister((any OrderStore).self, scope: .singleton) {
                InMemoryOrderStore(capacity: 100)
            }
            let server = shop.app.child(name: "server")
            // The pricing rules and the checkout service are stateless: one of each for the server, as the
            // hand-wired server keeps, instead of one per session (a request, here) and one per checkout.
            let assemblies: [any Assembly] = [
                CatalogAssembly(), CartAssembly(pricingScope: .singleton), CheckoutAssembly(checkoutScope: .singleton),
            ]
            try server.apply(assemblies + [ServerAssembly(journal: options.journal)])
            try options.configure(server)

            let requests = RequestContainerMiddleware<BasicRequestContext>(
                parent: server, tags: [requestTag, CartAssembly.sessionTag]
            )
            try validate(shop, requests: requests)

            let router = Router()
            router.add(middleware: requests)
            router.get("/products") { _, _ in try await ProductsEndpoint().respond() }
            router.post("/cart/items") { request, context in
                let item = try await request.decode(as: ShopHandlers.AddItem.self, context: context)
                return EditedResponse(status: .created, response: try await CartItemsEndpoint().respond(to: item))
            }
            router.post("/checkout") { _, _ in try await CheckoutEndpoint().respond() }
            router.get("/health") { _, _ in HealthEndpoint().respond() }

            let application = Application(
                router: router, configuration: configuration(options),
                services: [AppContainerService(container: shop.app)], logger: options.logger
            )
            return ShopServer(application: application, shop: shop, server: server, requestContainers: requests)
        } catch {
            shop.close()
            throw error
        }
    }

    /// Validates the whole tree with one request container in it, so the graph is checked as a request sees
    /// it (its `request` and `session` tags, its ``RequestInfo``).
    private static func validate(_ shop: ShopApp, requests: RequestContainerMiddleware<BasicRequestContext>) throws {
        let sample = Request(
            head: HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: "/"),
            body: RequestBody(buffer: ByteBuffer())
        )
        let probe = try requests.makeContainer(for: sample, id: "validation")
        let report = shop.app.validate()
        probe.close()
        if report.hasErrors { throw StartupError(report: report) }
    }

    // MARK: - Hand wiring

    /// The hand-wired server; with ``Wiring/handScoped`` its per-request services come from a ``HandScope``,
    /// with ``Wiring/minimalContainer`` all its services from a ``MinimalContainer``.
    private static func makeHandWired(_ options: Options) async throws -> ShopServer {
        let scoped = options.wiring == .handScoped
        let minimal = options.wiring == .minimalContainer
        let logger = SwiftLogShopLogger(options.logger)
        let http = ServerBackend()
        let orders = InMemoryOrderStore(capacity: 100)
        let catalog = RemoteCatalog(http: http, logger: logger)
        let carts = CartStore()
        let pricing = CartPricing()
        let gateway = try await CardGateway.connect(
            http: http, configuration: PaymentConfiguration(merchantID: ShopApp.defaultMerchantID), logger: logger
        )
        let checkout = PlainCheckout(gateway: gateway, orders: orders, logger: logger, clock: SystemClock())
        let journal = options.journal
        let synthetic = options.syntheticWork

        /// What the server does for every request before its handler: nothing, unless a calibration asks.
        @Sendable func begin(_ request: Request) {
            if let synthetic { synthetic.run(seed: request.method.rawValue.utf8.count) }
        }
        @Sendable func catalogService() throws -> any ProductCatalog {
            if minimal { return try MinimalContainer.Scope.bound.resolve((any ProductCatalog).self) }
            return catalog
        }
        @Sendable func journalService() throws -> UnitOfWorkJournal {
            if minimal { return try MinimalContainer.Scope.bound.resolve(UnitOfWorkJournal.self) }
            return journal
        }
        @Sendable func cart(for request: Request) throws -> any ShoppingCart {
            if minimal { return try MinimalContainer.Scope.bound.resolve((any ShoppingCart).self) }
            if scoped { return HandScope.bound.cart }
            return handWiredCart(headers: request.headers, store: carts, pricing: pricing)
        }
        @Sendable func withUnitOfWork<T>(
            _ request: Request, _ context: BasicRequestContext, _ body: (UnitOfWork) async throws -> T
        ) async throws -> T {
            if minimal { return try await body(MinimalContainer.Scope.bound.resolve(UnitOfWork.self)) }
            if scoped { return try await body(HandScope.bound.unitOfWork) }   // the scope disposes it
            let work = UnitOfWork(request: RequestInfo(request, context: context), journal: journal)
            do {
                let result = try await body(work)
                work.dispose()
                return result
            } catch {
                work.dispose()
                throw error
            }
        }

        let router = Router()
        if minimal {
            let services = MinimalContainer.shop(catalog: catalog, carts: carts, pricing: pricing, journal: journal)
            router.add(middleware: MinimalContainerMiddleware(container: services))
        }
        if scoped {
            let services = HandScope.Services(carts: carts, pricing: pricing, journal: journal)
            router.add(middleware: HandScopeMiddleware(services: services))
        }
        router.get("/products") { request, _ in
            begin(request)
            return try await ShopHandlers.products(catalog: catalogService())
        }
        router.post("/cart/items") { request, context in
            begin(request)
            let item = try await request.decode(as: ShopHandlers.AddItem.self, context: context)
            let added = try await withUnitOfWork(request, context) { work in
                try await ShopHandlers.addItem(item, catalog: catalogService(), cart: cart(for: request), work: work)
            }
            return EditedResponse(status: .created, response: added)
        }
        router.post("/checkout") { request, context in
            begin(request)
            return try await withUnitOfWork(request, context) { work in
                try await ShopHandlers.checkout(cart: cart(for: request), checkout: checkout, work: work)
            }
        }
        router.get("/health") { request, _ in
            begin(request)
            return ShopHandlers.health(journal: try journalService())
        }

        let application = Application(router: router, configuration: configuration(options), logger: options.logger)
        return ShopServer(application: application, shop: nil, server: nil, requestContainers: nil)
    }

    /// The cart of the user a request's `headers` name (`guest` when none), as both hand-wired servers make it
    /// for every request that needs one, so that they build the same objects.
    static func handWiredCart(headers: HTTPFields, store: CartStore, pricing: CartPricing) -> SessionCart {
        SessionCart(session: UserSession(user: headers[userHeader] ?? "guest"), store: store, pricing: pricing)
    }
}

extension MinimalContainer {
    /// The shop's services as the container server registers them, in a minimal container: the app services
    /// shared, the user, the cart and the unit of work one per request.
    ///
    /// - Parameters:
    ///   - catalog: The product catalog.
    ///   - carts: The store of every user's cart.
    ///   - pricing: The cart's pricing rules.
    ///   - journal: The journal every unit of work records in.
    /// - Returns: The container.
    package static func shop(
        catalog: any ProductCatalog, carts: CartStore, pricing: CartPricing, journal: UnitOfWorkJournal
    ) -> MinimalContainer {
        MinimalContainer([
            shared(catalog, as: (any ProductCatalog).self),
            shared(carts),
            shared(pricing),
            shared(journal),
            perRequest { scope in
                UserSession(user: try scope.resolve(RequestInfo.self).headers[ShopServer.userHeader] ?? "guest")
            },
            perRequest(as: (any ShoppingCart).self) { scope in
                SessionCart(session: try scope.resolve(), store: try scope.resolve(), pricing: try scope.resolve())
            },
            perRequest { scope in
                UnitOfWork(request: try scope.resolve(), journal: try scope.resolve())
            },
        ])
    }
}
