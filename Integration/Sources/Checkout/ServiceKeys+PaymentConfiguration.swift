import DICore

extension ServiceKeys {
    /// The payment provider account: the checkout feature declares it, the app must provide it.
    ///
    /// Resolving it in a tree where no container registered it throws `requiredKeyMissing`, which names
    /// this key and the registration to add.
    ///
    /// ```swift
    /// try app.register(\.paymentConfiguration) { _ in PaymentConfiguration(merchantID: "coffee-shop") }
    /// ```
    public var paymentConfiguration: ServiceKey<PaymentConfiguration> { .required(scope: .singleton) }
}
