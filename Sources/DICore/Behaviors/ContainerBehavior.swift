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
