/// Charges customers: implemented by the `Checkout` feature.
///
/// ```swift
/// let gateway = try await checkout.resolveAsync((any PaymentGateway).self)
/// let paymentID = try await gateway.charge(cents: 3_690, reference: "order-1")
/// ```
public protocol PaymentGateway: Sendable {
    /// Charges `cents` and returns the payment provider's reference.
    ///
    /// - Parameters:
    ///   - cents: The amount, more than 0.
    ///   - reference: Our reference for the charge, usually the order number.
    /// - Returns: The provider's payment ID.
    /// - Throws: ``ShopError`` when the provider declines.
    func charge(cents: Int, reference: String) async throws -> String
}
