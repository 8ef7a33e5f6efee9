import DICore

/// A class that provides the container its ``Injection`` properties resolve from.
///
/// ```swift
/// final class CheckoutModel: ContainerProviding {
///     let container: Container
///     @Injection var payments: any PaymentService       // resolved from `container` on first read
///
///     init(container: Container) { self.container = container }
/// }
/// ```
///
/// The requirement is `nonisolated`, so that a `@MainActor` class can conform with
/// `nonisolated let container: Container`.
public protocol ContainerProviding: AnyObject {
    /// The container the owner's `@Injection` properties resolve from.
    nonisolated var container: Container { get }
}
