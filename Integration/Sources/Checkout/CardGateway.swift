import Foundation
import ShopCore

/// The ``PaymentGateway`` of the shop: opens a session with the payment provider once (hence its `async`
/// factory), then charges through `POST /payments`.
///
/// ```swift
/// let gateway = try await CardGateway.connect(
///     http: InMemoryHTTPClient.shopBackend(), configuration: PaymentConfiguration(merchantID: "shop"),
///     logger: RecordingLogger()
/// )
/// let paymentID = try await gateway.charge(cents: 1_200, reference: "order-1")
/// ```
public final class CardGateway: PaymentGateway {
    private let http: any HTTPClient
    private let logger: any ShopLogger
    /// The merchant account charges are made for.
    public let merchantID: String

    private init(http: any HTTPClient, logger: any ShopLogger, merchantID: String) {
        self.http = http
        self.logger = logger
        self.merchantID = merchantID
    }

    /// Opens a payment session for the merchant and returns a gateway that charges through it.
    ///
    /// - Parameters:
    ///   - http: How the payment provider is reached.
    ///   - configuration: The merchant account.
    ///   - logger: Where charges are logged.
    /// - Returns: The connected gateway.
    /// - Throws: ``ShopError`` when the provider refuses the session.
    public static func connect(
        http: any HTTPClient, configuration: PaymentConfiguration, logger: any ShopLogger
    ) async throws -> CardGateway {
        let body = #"{"merchant":"\#(configuration.merchantID)"}"#
        let response = try await http.send(OutboundRequest(method: "POST", path: "/payments/sessions", body: body))
        guard response.isSuccess else {
            throw ShopError(
                "The payment provider refused a session for merchant \"\(configuration.merchantID)\" "
                    + "(status \(response.status)); check \\.paymentConfiguration."
            )
        }
        logger.log("checkout: payment session open for \(configuration.merchantID)")
        return CardGateway(http: http, logger: logger, merchantID: configuration.merchantID)
    }

    /// Charges `cents` through `POST /payments`.
    ///
    /// - Parameters:
    ///   - cents: The amount, more than 0.
    ///   - reference: Our reference, usually the order number.
    /// - Returns: The provider's payment ID.
    /// - Throws: ``ShopError`` when the provider declines.
    public func charge(cents: Int, reference: String) async throws -> String {
        let body = #"{"cents":\#(cents),"reference":"\#(reference)"}"#
        let response = try await http.send(OutboundRequest(method: "POST", path: "/payments", body: body))
        struct Accepted: Decodable { let paymentID: String }
        guard response.isSuccess,
            let accepted = try? JSONDecoder().decode(Accepted.self, from: Data(response.body.utf8))
        else {
            throw ShopError(
                "The payment of \(formatCents(cents)) for \(reference) was declined (status \(response.status))."
            )
        }
        logger.log("checkout: charged \(formatCents(cents)) for \(reference) as \(accepted.paymentID)")
        return accepted.paymentID
    }
}
