/// What the shop's services throw when a customer's request cannot be served.
///
/// ```swift
/// do { _ = try await catalog.product(id: "teapot") }
/// catch let error as ShopError { print(error) }   // No product has the ID "teapot".
/// ```
public struct ShopError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The whole sentence, naming what failed and what to do.
    public let description: String

    /// Makes an error with its message.
    ///
    /// - Parameter description: The whole sentence.
    public init(_ description: String) {
        self.description = description
    }
}
