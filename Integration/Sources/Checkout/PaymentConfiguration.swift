/// Who the shop is to the payment provider: the app provides it through the required `\.paymentConfiguration`
/// key, since only the app knows its merchant account.
///
/// ```swift
/// try app.register(\.paymentConfiguration) { _ in PaymentConfiguration(merchantID: "coffee-shop") }
/// ```
public struct PaymentConfiguration: Sendable, Hashable {
    /// The shop's account at the payment provider.
    public let merchantID: String

    /// Makes a configuration.
    ///
    /// - Parameter merchantID: The shop's account at the payment provider.
    public init(merchantID: String) {
        self.merchantID = merchantID
    }
}
