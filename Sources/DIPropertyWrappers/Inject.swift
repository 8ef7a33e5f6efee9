import DICore

/// Injects a service when the owner is initialised, from the ambient container at that moment.
///
/// ```swift
/// final class ViewModel {
///     @Inject var logger: any Logger
///     @Inject(name: "primary") var database: Database
///     @Inject var cache: Cache?                 // nil when Cache is not registered
/// }
///
/// let model = withContainer(checkout) { ViewModel() }    // resolved from checkout, now
/// ```
///
/// The ambient container is `Container.current` (bound with `withContainer`, `Container.shared` by
/// default); inside a factory that a container is running it is the container that factory's dependencies
/// come from, so a registered type's `@Inject` properties follow the same lifetime rules as its `Resolver`.
///
/// An optional property is `nil` when nothing is registered for the wrapped type; a registered service whose
/// factory fails still reports. A non-optional property whose service cannot be resolved **traps** when the
/// owner is initialised, with the container's full diagnostic (the path, the containers searched, close
/// matches) and the file and line of the property; there is no silent default.
///
/// `Inject` is `Sendable` when the service is, so it fits `Sendable` structs, actors and `@MainActor`
/// classes. (A `final class: Sendable` cannot hold any property wrapper: the compiler makes the wrapper's
/// storage a `var`.)
@propertyWrapper
public struct Inject<Value> {
    /// The injected service; it can be replaced by hand.
    public var wrappedValue: Value

    /// Resolves the property's type, under `name`, from the ambient container.
    ///
    /// ```swift
    /// @Inject(name: "primary") var database: Database
    /// ```
    ///
    /// - Parameters:
    ///   - name: The registration name; `nil` for the unnamed registration.
    ///   - fileID: The property's file, printed if it cannot be injected; leave the default.
    ///   - line: The property's line, printed if it cannot be injected; leave the default.
    @inlinable
    public init(name: String? = nil, fileID: String = #fileID, line: Int = #line) {
        // The ambient container is borrowed, not copied: what made it ambient keeps it alive while this
        // initialiser runs, and a retain and release per property cost more than the lookup.
        // The value is returned as it is, not wrapped in a `Result` (a copy of it, and of its existential, more).
        wrappedValue = Container.ambientReference.with { container in
            do throws(InjectionError) {
                return try Self.resolve(name: name, from: container, fileID: fileID, line: line)
            } catch {
                injectionFailed(error)
            }
        }
    }

    /// What the initialiser does, throwing instead of trapping.
    @inlinable
    package static func resolve(name: String?, from container: Container, fileID: String, line: Int)
        throws(InjectionError) -> Value
    {
        do {
            return try container.resolve(Value.self, name: name)
        } catch {
            throw InjectionError.resolving(
                Value.self, name: name, from: container, wrapper: "@Inject",
                location: SourceLocation(fileID: fileID, line: line), error: error
            )
        }
    }
}

extension Inject: Sendable where Value: Sendable {}
