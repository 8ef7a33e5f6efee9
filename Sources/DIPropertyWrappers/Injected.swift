import DICore

/// Injects a key of the keypath registry when the owner is initialised, from the ambient container.
///
/// ```swift
/// extension ServiceKeys {
///     var clock: ServiceKey<any Clock> { .init(scope: .singleton) { _ in SystemClock() } }
/// }
///
/// final class Scheduler {
///     @Injected(\.clock) var clock              // the type comes from the key: any Clock
/// }
/// ```
///
/// `@Injected` is **eager**, like ``Inject``: the key is resolved when the owner is initialised, so a
/// `.required()` key the app forgot to provide fails at once, where the owner is made. Use ``LazyInjected``
/// to resolve on first read instead.
///
/// The key resolves as `Container.resolve(\.key)` does: the nearest container's registration of the key,
/// else the key's default. A key that cannot be resolved **traps** with the container's full diagnostic and
/// the property's file and line. `Injected` is `Sendable` when the service is.
@propertyWrapper
public struct Injected<Value> {
    /// The injected service; it can be replaced by hand.
    public var wrappedValue: Value

    /// Resolves `key` from the ambient container.
    ///
    /// ```swift
    /// @Injected(\.clock) var clock
    /// ```
    ///
    /// - Parameters:
    ///   - key: The key path of the key: `\.clock`.
    ///   - fileID: The property's file, printed if it cannot be injected; leave the default.
    ///   - line: The property's line, printed if it cannot be injected; leave the default.
    @inlinable
    public init(_ key: ServiceKeyPath<Value>, fileID: String = #fileID, line: Int = #line) {
        // Borrowed, as `@Inject` borrows it: what made the container ambient keeps it alive meanwhile.
        // The value is returned as it is, not wrapped in a `Result` (a copy of it, and of its existential, more).
        wrappedValue = Container.ambientReference.with { container in
            do throws(InjectionError) {
                return try Self.resolve(key, from: container, fileID: fileID, line: line)
            } catch {
                injectionFailed(error)
            }
        }
    }

    /// What the initialiser does, throwing instead of trapping.
    @inlinable
    package static func resolve(_ key: ServiceKeyPath<Value>, from container: Container, fileID: String, line: Int)
        throws(InjectionError) -> Value
    {
        do {
            return try container.resolve(key)
        } catch {
            throw InjectionError.resolving(
                key, from: container, wrapper: "@Injected", location: SourceLocation(fileID: fileID, line: line),
                error: error
            )
        }
    }
}

extension Injected: Sendable where Value: Sendable {}
