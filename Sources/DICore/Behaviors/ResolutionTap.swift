/// A diagnostics observer of resolutions (an edge recorder, a trace), told about every resolve made by a
/// container it taps; `DIDiagnostics` installs them.
///
/// Unlike a `ResolutionBehavior`, a tap comes off again: `Container.tap(_:)` sends a container's resolves to
/// the slow path only while a tap is attached, so a container nobody taps pays nothing, not even a check.
package protocol ResolutionTap: AnyObject, Sendable {
    /// Called after a tapped container resolved (or failed to resolve) one service; no lock is held.
    func record(_ event: ResolutionTapEvent)
}

/// One resolve as a tap sees it.
package struct ResolutionTapEvent {
    /// The registration that answered (for an alias, the alias registration).
    package let registration: Registration
    /// The container that holds `registration`.
    package let owner: Container
    /// The container that was asked.
    package let asked: Container
    /// The build that was running when this resolve was made (the dependent), `nil` for a top-level resolve.
    package let parent: (registration: Registration, container: Container)?
    /// How many builds were running on this thread when the resolve started.
    package let depth: Int
    /// Whether a factory ran (`false`: an existing instance was handed out).
    package let built: Bool
    /// When the resolve started.
    package let start: ContinuousClock.Instant
    /// How long the resolve took, its dependencies included.
    package let duration: Duration
    /// The error the resolve threw, `nil` when it returned a value.
    package let error: (any Error)?
}

/// The taps attached in this process.
package enum ResolutionTaps {
    private static let installed = Lock<[any ResolutionTap]>([])

    /// Adds `tap` and sends `containers` to the slow path; pair with `remove(_:from:)`.
    package static func add(_ tap: any ResolutionTap, to containers: [Container]) {
        installed.withLock { $0.append(tap) }
        for container in containers { container.registry.tap(1) }
    }

    /// Removes `tap`; `containers` leave the slow path once no other tap watches them.
    package static func remove(_ tap: any ResolutionTap, from containers: [Container]) {
        for container in containers { container.registry.tap(-1) }
        installed.withLock { $0.removeAll { $0 === tap } }
    }

    static var all: [any ResolutionTap] { installed.withLock { $0 } }
}

extension Container {
    /// The slow-path resolve of a tapped container: times `produce`, tells every tap, rethrows.
    func resolveTapped<Service>(_ registration: Registration, from owner: Container, as type: Service.Type)
        throws -> Service
    {
        let stack = ResolutionStack.current
        let parent = stack.innermost
        let depth = stack.depth
        let builds = stack.builds
        let clock = ContinuousClock()
        let start = clock.now
        let value: Service
        do {
            value = try produce(registration, from: owner, as: type)
        } catch {
            report(registration, owner, parent, depth, built: stack.builds != builds, start, clock.now - start, error)
            throw error
        }
        report(registration, owner, parent, depth, built: stack.builds != builds, start, clock.now - start, nil)
        return value
    }

    private func report(
        _ registration: Registration,
        _ owner: Container,
        _ parent: (registration: Registration, container: Container)?,
        _ depth: Int,
        built: Bool,
        _ start: ContinuousClock.Instant,
        _ duration: Duration,
        _ error: (any Error)?
    ) {
        let event = ResolutionTapEvent(
            registration: registration, owner: owner, asked: self, parent: parent, depth: depth, built: built,
            start: start, duration: duration, error: error
        )
        for tap in ResolutionTaps.all { tap.record(event) }
    }
}
