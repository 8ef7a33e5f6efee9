/// A diagnostics observer of resolutions (an edge recorder, a trace), told about every resolve made by a
/// container it taps; `DIDiagnostics` installs them.
///
/// Unlike a `ResolutionBehavior`, a tap comes off again: `Container.tap(_:)` sends a container's resolves to
/// the slow path only while a tap is attached, so a container nobody taps pays nothing, not even a check.
package protocol ResolutionTap: AnyObject, Sendable {
    /// Called after a tapped container resolved (or failed to resolve) one service; no lock is held.
    func record(_ event: ResolutionTapEvent)

    /// Called when a build asks a tapped container (`asked`) for a type that no registration answers and that the
    /// container makes instead — an `Optional<T>`, a relationship (`Lazy<T>`, `Provider<T>`, `All<T>`) — under
    /// `name`, before it is made: a relationship resolves nothing while it is made, and an optional's target
    /// may be missing, so `record(_:)` alone would not see the dependency. `parent` is the build that asked.
    func recordImplicit(
        _ type: Any.Type, name: String?, by parent: (registration: Registration, container: Container),
        asked: Container
    )
}

extension ResolutionTap {
    /// Records nothing.
    package func recordImplicit(
        _ type: Any.Type, name: String?, by parent: (registration: Registration, container: Container),
        asked: Container
    ) {}
}
