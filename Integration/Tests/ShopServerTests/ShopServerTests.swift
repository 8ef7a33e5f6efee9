import Cart
import DICore
import DIDiagnostics
import DIScopes
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import ShopApp
import ShopCore
import ShopServer
import Synchronization
import Testing

/// The shop server end to end, in process (`app.test(.router)`): each test builds its own server and
/// containers, so the tests run in parallel.
@Suite struct ShopServerTests {
    private static func headers(user: String) -> HTTPFields {
        [ShopServer.userHeader: user, .contentType: "application/json"]
    }

    private static func json(_ item: ShopHandlers.AddItem) throws -> ByteBuffer {
        ByteBuffer(bytes: try JSONEncoder().encode(item))
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ response: TestResponse) throws -> T {
        try JSONDecoder().decode(type, from: Data(String(buffer: response.body).utf8))
    }

    @Test(.timeLimit(.minutes(1)), arguments: ShopServer.Wiring.allCases)
    func servesTheShopOverJSON(wiring: ShopServer.Wiring) async throws {
        try await Self.expectServesTheShop(ShopServer.Options(wiring: wiring))
    }

    /// The load test's calibration variants serve the same shop: the synthetic work changes only what each
    /// request costs.
    @Test(.timeLimit(.minutes(1)), arguments: SyntheticWork.allCases)
    func theHandWiredServerServesTheShopWithSyntheticWork(work: SyntheticWork) async throws {
        var options = ShopServer.Options(wiring: .handWired)
        options.syntheticWork = work
        try await Self.expectServesTheShop(options)
    }

    /// Lists the products, adds to a cart, checks out twice (the second finds the cart empty) and reads the
    /// health, checking every answer.
    private static func expectServesTheShop(_ options: ShopServer.Options) async throws {
        let server = try await ShopServer.make(options)
        try await server.application.test(.router) { client in
            let products = try await client.execute(uri: "/products", method: .get)
            #expect(products.status == .ok)
            let listed = try Self.decode([Product].self, products)
            #expect(listed.map(\.id) == ["espresso-beans", "grinder", "cup"])

            let item = ShopHandlers.AddItem(productID: "cup", quantity: 2)
            let added = try await client.execute(
                uri: "/cart/items", method: .post, headers: Self.headers(user: "ada"), body: Self.json(item)
            )
            #expect(added.status == .created)
            #expect(try Self.decode(ShopHandlers.ItemAdded.self, added).user == "ada")

            let receipt = try await client.execute(uri: "/checkout", method: .post, headers: Self.headers(user: "ada"))
            #expect(receipt.status == .ok)
            let order = try Self.decode(ShopHandlers.Receipt.self, receipt)
            #expect(order.user == "ada")
            #expect(order.lines == 1)
            #expect(order.totalCents == 2 * 1_200 + Shipping.feeCents)

            // The checkout's unit of work emptied the cart when it committed.
            let again = try await client.execute(uri: "/checkout", method: .post, headers: Self.headers(user: "ada"))
            #expect(again.status == .conflict)

            let healthResponse = try await client.execute(uri: "/health", method: .get)
            let health = try Self.decode(ShopHandlers.Health.self, healthResponse)
            #expect(health.status == "ok")
            #expect(health.unitsOfWork.committed == 2)
            #expect(health.unitsOfWork.rolledBack == 1)
        }
    }

    @Test(.timeLimit(.minutes(1)), arguments: [2, 16])
    func everyRequestsUnitOfWorkIsDisposedExactlyOnceAlsoWhenTheHandlerThrows(concurrent: Int) async throws {
        let journal = UnitOfWorkJournal(keepsIDs: true)
        let server = try await ShopServer.make(ShopServer.Options(journal: journal))
        let statuses = try await server.application.test(.router) { client in
            try await withThrowingTaskGroup(of: [HTTPResponse.Status].self) { group in
                for index in 0..<concurrent {
                    group.addTask {
                        let headers = Self.headers(user: "user-\(index)")
                        let good = ShopHandlers.AddItem(productID: "grinder", quantity: 1)
                        let unknown = ShopHandlers.AddItem(productID: "teapot", quantity: 1)
                        return [
                            // Succeeds: commits.
                            try await client.execute(
                                uri: "/cart/items", method: .post, headers: headers, body: Self.json(good)
                            ).status,
                            // The handler throws (no such product): rolls back.
                            try await client.execute(
                                uri: "/cart/items", method: .post, headers: headers, body: Self.json(unknown)
                            ).status,
                            // Succeeds, and empties the cart at commit.
                            try await client.execute(uri: "/checkout", method: .post, headers: headers).status,
                            // The handler throws (the cart is empty now): rolls back.
                            try await client.execute(uri: "/checkout", method: .post, headers: headers).status,
                        ]
                    }
                }
                return try await group.reduce(into: []) { $0.append(contentsOf: $1) }
            }
        }
        #expect(statuses.filter { $0 == .created || $0 == .ok }.count == 2 * concurrent)
        #expect(statuses.filter { $0 == .unprocessableContent }.count == concurrent)
        #expect(statuses.filter { $0 == .conflict }.count == concurrent)

        let counts = journal.counts
        #expect(counts.opened == 4 * concurrent)
        #expect(counts.committed == 2 * concurrent)
        #expect(counts.rolledBack == 2 * concurrent)
        #expect(counts.disposedAgain == 0)
        #expect(counts.open == 0)
        // One unit per request, each disposed once: no two requests shared one.
        #expect(journal.disposalsByRequest.count == 4 * concurrent)
        #expect(journal.disposalsByRequest.values.allSatisfy { $0 == 1 })
    }

    @Test(.timeLimit(.minutes(1)))
    func requestsShareTheStatelessServicesAsTheHandWiredServerDoes() async throws {
        let server = try await ShopServer.make(ShopServer.Options())
        defer { server.shop?.close() }
        let middleware = try #require(server.requestContainers)
        let request = Request(
            head: HTTPRequest(method: .post, scheme: "http", authority: "localhost", path: "/checkout"),
            body: RequestBody(buffer: ByteBuffer())
        )
        let first = try middleware.makeContainer(for: request, id: "1")
        let second = try middleware.makeContainer(for: request, id: "2")
        // The cart feature keeps pricing rules per session and the checkout feature makes a checkout service
        // per checkout; a request is a session here, so the server keeps one of each instead.
        #expect(try first.resolve(CartPricing.self) === second.resolve(CartPricing.self))
        let checkout = try #require(server.server).registrations.filter { $0.serviceType == (any CheckoutService).self }
        #expect(checkout.map(\.scope) == [.singleton])
        // Still one unit of work per request.
        #expect(try first.resolve(UnitOfWork.self) !== second.resolve(UnitOfWork.self))
        await first.closeAsync()
        await second.closeAsync()
    }

    @Test(.timeLimit(.minutes(1)))
    func anInvalidGraphStopsStartUpWithTheReport() async throws {
        let options = ShopServer.Options { server in
            // Two mistakes: a singleton keeping the request's unit of work, and a missing dependency.
            try server.autoregister(AuditTrail.self, scope: .singleton) { (work: UnitOfWork) in AuditTrail(work: work) }
            try server.autoregister(Mailer.self) { (transport: MailTransport) in Mailer(transport: transport) }
        }
        let error = try await #require(throws: StartupError.self) { try await ShopServer.make(options) }
        #expect(Set(error.report.errors.map(\.id)) == [.matching, .missing])
        let text = error.description
        #expect(text.hasPrefix("shop-server did not start"))
        #expect(text.contains("error[DI-MATCHING]"))
        #expect(text.contains("error[DI-MISSING]"))
        #expect(text.contains("MailTransport"))
    }

    @Test(.timeLimit(.minutes(1)))
    func gracefulShutdownClosesTheAppContainerAndDisposesItsSingletons() async throws {
        let server = try await ShopServer.make(ShopServer.Options { server in
            try server.autoregister(Connection.self, scope: .singleton, initializer: Connection.init)
        })
        let shop = try #require(server.shop)
        let connection = try #require(server.server).resolve(Connection.self)
        try await server.application.test(.router) { client in
            let response = try await client.execute(uri: "/products", method: .get)
            #expect(response.status == .ok)
            #expect(!shop.app.isClosed)
            #expect(!connection.isClosed)
        }
        // `test` triggers graceful shutdown of the application's services when the closure returns.
        #expect(shop.app.isClosed)
        #expect(connection.isClosed)
    }
}

/// A singleton that wrongly keeps the request's unit of work (DI-MATCHING).
private struct AuditTrail: Sendable {
    let work: UnitOfWork
}

/// Never registered (DI-MISSING).
private struct MailTransport: Sendable {}

private struct Mailer: Sendable {
    let transport: MailTransport
}

/// A singleton that records its disposal.
private final class Connection: Disposable, Sendable {
    private let closed = Atomic<Bool>(false)
    var isClosed: Bool { closed.load(ordering: .relaxed) }
    func dispose() { closed.store(true, ordering: .relaxed) }
}
