import DICore

/// Injects a class instance on the first read of the property, then holds it weakly.
///
/// ```swift
/// final class DetailCoordinator {
///     @WeakLazyInject var parent: (any Coordinator)?    // nil once the parent is gone
/// }
/// ```
///
/// For back references that must not keep the service alive: the first read resolves the service from the
/// container captured when the owner was created (as ``LazyInject`` does) and returns it; later reads return
/// it while something else keeps it (a container holding a `.singleton`, a `.weak` lifetime's user, a parent
/// object) and `nil` after it is released. The service is not resolved again. A transient service is
/// therefore only seen by the first read.
///
/// The wrapped type is the service type, class-bound protocol existentials included; the property's type is
/// its optional. If the first read cannot resolve the service, or resolves a value that is not a class
/// instance, it **traps** with the full diagnostic and the property's file and line; `try $parent.resolve()`
/// throws the same ``InjectionError`` instead. Each read takes a short lock (a weak reference cannot be
/// loaded atomically).
@propertyWrapper
public struct WeakLazyInject<Value> {
    let slot: WeakSlot<Value>

    /// Captures the ambient container, to resolve the service under `name` on the first read.
    ///
    /// ```swift
    /// @WeakLazyInject(name: "root") var parent: (any Coordinator)?
    /// ```
    ///
    /// - Parameters:
    ///   - name: The registration name; `nil` for the unnamed registration.
    ///   - fileID: The property's file, printed if it cannot be injected; leave the default.
    ///   - line: The property's line, printed if it cannot be injected; leave the default.
    public init(name: String? = nil, fileID: String = #fileID, line: Int = #line) {
        slot = WeakSlot(
            name: name, container: Container.ambient, location: SourceLocation(fileID: fileID, line: line)
        )
    }

    /// The service while something keeps it, `nil` after; resolved on the first read.
    public var wrappedValue: Value? {
        do {
            return try slot.resolve()
        } catch {
            injectionFailed(error)
        }
    }

    /// The wrapper itself, for `$property.resolve()` and `$property.isResolved`.
    public var projectedValue: WeakLazyInject<Value> { self }

    /// The service, resolving it now if it was not yet; throws instead of trapping.
    ///
    /// ```swift
    /// let parent = try coordinator.$parent.resolve()
    /// ```
    ///
    /// - Returns: The service while something keeps it, `nil` after.
    /// - Throws: ``InjectionError`` — `resolutionFailed` with the container's diagnostic, or `notAnObject`.
    public func resolve() throws(InjectionError) -> Value? { try slot.resolve() }

    /// Whether the first read happened.
    public var isResolved: Bool { slot.isResolved }
}

extension WeakLazyInject: Sendable where Value: Sendable {}
