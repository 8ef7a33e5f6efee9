import Foundation
import Synchronization

extension InMemoryHTTPClient {
    /// The products the in-memory back end sells unless told otherwise.
    public static let sampleProducts: [Product] = [
        Product(id: "espresso-beans", name: "Espresso beans 1 kg", priceCents: 2_490),
        Product(id: "grinder", name: "Hand grinder", priceCents: 6_900),
        Product(id: "cup", name: "Ceramic cup", priceCents: 1_200),
    ]

    /// A client whose routes play the shop's back end: `GET /inventory` lists `products` as JSON,
    /// `POST /payments/sessions` opens a payment session, `POST /payments` accepts a charge of
    /// `{"cents": …, "reference": …}` and answers `{"paymentID": "pay-1"}`, counting up.
    ///
    /// ```swift
    /// let http = InMemoryHTTPClient.shopBackend()
    /// let inventory = try await http.send(OutboundRequest(method: "GET", path: "/inventory"))
    /// ```
    ///
    /// - Parameter products: What `GET /inventory` lists.
    /// - Returns: The client.
    public static func shopBackend(products: [Product] = sampleProducts) -> InMemoryHTTPClient {
        let payments = Atomic<Int>(0)
        let inventory = (try? JSONEncoder().encode(products)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
        return InMemoryHTTPClient(routes: [
            "GET /inventory": { _ in OutboundResponse(status: 200, body: inventory) },
            "POST /payments/sessions": { _ in OutboundResponse(status: 201, body: #"{"session":"ps-1"}"#) },
            "POST /payments": { request in
                guard let charge = try? JSONDecoder().decode(Charge.self, from: Data(request.body.utf8)),
                    charge.cents > 0
                else { return OutboundResponse(status: 422, body: #"{"error":"invalid charge"}"#) }
                let number = payments.add(1, ordering: .relaxed).newValue
                return OutboundResponse(status: 201, body: #"{"paymentID":"pay-\#(number)"}"#)
            },
        ])
    }

    /// The body of `POST /payments`.
    private struct Charge: Decodable {
        let cents: Int
        let reference: String
    }
}
