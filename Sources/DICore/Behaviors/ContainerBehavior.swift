import Synchronization

/// An observer that a container tells about every registration made in it and in its descendants.
///
/// Add one with `Container.addBehavior(_:)`. A behaviour observes; it does not veto: by the time
/// `didRegister(_:in:)` runs, the registration is already in place and resolvable. Use behaviours to log,
/// audit, lint, or feed a diagnostics view.
///
/// ```swift
/// struct ForbidTransientLoggers: ContainerBehavior {
///     func didRegister(_ info: RegistrationInfo, in container: Container) throws {
///         if info.serviceType == (any Logger).self && info.scope == .transient {
///             throw LintError("\(info) should be a singleton.")
///         }
///     }
/// }
/// app.addBehavior(ForbidTransientLoggers())
/// ```
///
/// Rules a container follows when it runs behaviours:
/// - A behaviour added to a container observes that container and every descendant, those that exist and
///   those created later. Behaviours of ancestors run first, then the container's own, each in the order
///   they were added.
/// - Only registrations made after the behaviour was added are reported, once each, after they are applied.
///   A batch (a `register { … }` builder, an `apply(_:)` of assemblies) is reported after the whole batch is
///   in place, in registration order; a batch that is refused is not reported.
/// - No lock is held while a behaviour runs, so it may register, resolve or create children.
/// - A behaviour that throws does not undo anything: the registration stays applied, every other
///   behaviour is still told, and the registering call then throws `RegistrationError` with code
///   `behaviorFailed`, whose `underlying` is the behaviour's error.
///
/// To be told about resolutions too, conform to `ResolutionBehavior`.
public protocol ContainerBehavior: Sendable {
    /// Called after a registration was applied to `container` (the container it was made in, which may be
    /// a descendant of the one the behaviour was added to).
    ///
    /// - Parameters:
    ///   - info: What was registered, where, with which lifetime.
    ///   - container: The container that now holds the registration.
    /// - Throws: Any error; the registering call rethrows it wrapped in `RegistrationError`
    ///   (`behaviorFailed`) after every behaviour ran. The registration stays applied.
    func didRegister(_ info: RegistrationInfo, in container: Container) throws
}

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

/// The behaviours added to one container (not its ancestors').
package final class BehaviorStore: Sendable {
    private let behaviors = Lock<[any ContainerBehavior]>([])

    /// How many behaviours were ever added to any container; while none were, registration skips the
    /// walk over the ancestors' behaviour lists.
    private static let added = Atomic<Int>(0)

    package init() {}

    package static var anyAdded: Bool { added.load(ordering: .relaxed) != 0 }

    package func append(_ behavior: any ContainerBehavior) {
        Self.added.add(1, ordering: .relaxed)
        behaviors.withLock { $0.append(behavior) }
    }

    package var all: [any ContainerBehavior] { behaviors.withLock { $0 } }
}

/// Marks the resolutions made while a `didResolve` runs, so that they are not reported again.
enum BehaviorReporting {
    @TaskLocal static var isReporting = false
}
