/// A diagnostics observer of resolutions (an edge recorder, a trace), told about every resolve made by a
/// container it taps; `DIDiagnostics` installs them.
///
/// Unlike a `ResolutionBehavior`, a tap comes off again: `Container.tap(_:)` sends a container's resolves to
/// the slow path only while a tap is attached, so a container nobody taps pays nothing, not even a check.
package protocol ResolutionTap: AnyObject, Sendable {
    /// Called after a tapped container resolved (or failed to resolve) one service; no lock is held.
    func record(_ event: ResolutionTapEvent)
}
