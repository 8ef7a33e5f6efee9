import Foundation
import ShopCore
import Synchronization

/// The back end the server's features talk to (inventory and payments), answered in memory and, unlike
/// `InMemoryHTTPClient`, without remembering the requests: a server under load must not grow with every
/// request it served.
///
/// ```swift
/// let shop = try ShopApp.makeContainer(logger: logger, http: ServerBackend())
/// ```
///
/// `GET /inventory` lists the products, `POST /payments/sessions` opens a session, `POST /payments` accepts
/// every charge of more than 0 cents and answers `{"paymentID":"pay-N"}`.
public final class ServerBackend: HTTPClient {
    private let inventory: String
    private let payments = Atomic<Int>(0)

    /// Makes the back end.
    ///
    /// - Parameter products: What `GET /inventory` lists.
    public init(products: [Product] = InMemoryHTTPClient.sampleProducts) {
        inventory = String(decoding: (try? JSONEncoder().encode(products)) ?? Data("[]".utf8), as: UTF8.self)
    }

    /// Answers the request as the shop's back end would.
    ///
    /// - Parameter request: The request.
    /// - Returns: The answer; 404 for an unknown route, 422 for a charge that is not positive.
    public func send(_ request: OutboundRequest) async throws -> OutboundResponse {
        switch (request.method, request.path) {
        case ("GET", "/inventory"):
            return OutboundResponse(status: 200, body: inventory)
        case ("POST", "/payments/sessions"):
            return OutboundResponse(status: 201, body: #"{"session":"ps-1"}"#)
        case ("POST", "/payments"):
            guard let charge = try? JSONDecoder().decode(Charge.self, from: Data(request.body.utf8)),
                charge.cents > 0
            else { return OutboundResponse(status: 422, body: #"{"error":"invalid charge"}"#) }
            let number = payments.add(1, ordering: .relaxed).newValue
            return OutboundResponse(status: 201, body: #"{"paymentID":"pay-\#(number)"}"#)
        default:
            return OutboundResponse(status: 404, body: "no route for \(request.method) \(request.path)")
        }
    }

    private struct Charge: Decodable {
        let cents: Int
    }
}
