/// The keypath registry: the namespace that keys are declared in, one computed property per service.
///
/// A library declares a key with a default, or with `.required()` when the app must provide it; any
/// container may override a key for its subtree:
///
/// ```swift
/// extension ServiceKeys {
///     var clock: ServiceKey<any Clock> { .init(scope: .singleton) { _ in SystemClock() } }
///     var analytics: ServiceKey<any Analytics> { .required() }
/// }
///
/// let clock = try app.resolve(\.clock)                    // the default: one SystemClock per tree
/// try checkout.register(\.clock) { _ in FixedClock() }    // checkout and its descendants get FixedClock
/// try app.register(\.analytics) { _ in Telemetry() }      // the app provides the required key
/// ```
///
/// Keys are compile-time safe: a key path names a property that exists and fixes the service type.
/// `ServiceKeys` has no state and cannot be created outside DIToolkit; the container evaluates the
/// properties it is given key paths to.
public struct ServiceKeys: Sendable {
    package init() {}
}

/// A key path to a key of the keypath registry, as `resolve(_:)` and `register(_:factory:)` take it:
/// write it as a literal, `\.clock`.
///
/// Key path literals without captures are `Sendable`, so containers can remember them across threads.
///
/// ```swift
/// let clock = try app.resolve(\.clock)
/// ```
public typealias ServiceKeyPath<Service> = any KeyPath<ServiceKeys, ServiceKey<Service>> & Sendable
