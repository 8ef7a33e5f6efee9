import DICore

/// Registers the services every feature shares in the app container: the logger, the HTTP client and
/// the order store (the clock is the `\.clock` key's default).
///
/// ```swift
/// let app = Container(name: "app")
/// try app.apply(ShopCoreAssembly(logger: PrintLogger(), http: InMemoryHTTPClient.shopBackend()))
/// ```
public struct ShopCoreAssembly: Assembly {
    /// The logger every service writes to.
    public let logger: any ShopLogger
    /// How the features reach the back end.
    public let http: any HTTPClient

    /// Makes the assembly.
    ///
    /// - Parameters:
    ///   - logger: The logger every service writes to.
    ///   - http: How the features reach the back end.
    public init(logger: any ShopLogger, http: any HTTPClient) {
        self.logger = logger
        self.http = http
    }

    /// Registers the logger, the HTTP client and the order store as singletons.
    ///
    /// - Parameter container: The app container.
    /// - Throws: `RegistrationError` when a registration is refused.
    public func assemble(into container: Container) throws {
        let logger = logger
        let http = http
        // `autoregister` with no parameters: diagnostics know these have no dependencies.
        try container.autoregister((any ShopLogger).self, scope: .singleton) { logger }
        try container.autoregister((any HTTPClient).self, scope: .singleton) { http }
        try container.autoregister((any OrderStore).self, scope: .singleton) { InMemoryOrderStore() }
    }
}
