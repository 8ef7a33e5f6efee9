import Synchronization

/// A behaviour that is also told about every successful resolution.
///
/// Observing resolutions is opt-in because it has a cost: while a container or one of its ancestors has a
/// `ResolutionBehavior`, its resolves take the slow path (a built singleton is no longer returned by the
/// lock-free fast path). Containers with no resolution behaviour on their path pay nothing.
///
/// ```swift
/// final class ResolutionCounter: ResolutionBehavior {
///     let counts = Mutex<[String: Int]>([:])
///     func didResolve(_ info: RegistrationInfo, instance: Any, in container: Container) {
///         counts.withLock { $0[info.displayName, default: 0] += 1 }
///     }
/// }
/// app.addBehavior(ResolutionCounter())
/// ```
///
/// Every resolve that returns a value is reported once, after the value is built or found, including the
/// dependencies a factory resolves (those first, so a graph is reported leaves first), cached singletons,
/// services with runtime arguments and `async` services. Failed resolves are not reported.
/// Resolutions made from inside `didResolve` itself are not reported again, so a behaviour may resolve
/// without recursing forever.
public protocol ResolutionBehavior: ContainerBehavior {
    /// Called after `container` resolved a service.
    ///
    /// - Parameters:
    ///   - info: The registration that answered the request (for an alias, the alias registration).
    ///   - instance: The resolved value.
    ///   - container: The container that was asked (which may be a descendant of the one that holds the
    ///     registration, and of the one the behaviour was added to).
    func didResolve(_ info: RegistrationInfo, instance: Any, in container: Container)
}

extension ResolutionBehavior {
    /// Does nothing: a resolution behaviour need not observe registrations.
    public func didRegister(_ info: RegistrationInfo, in container: Container) throws {}
}
