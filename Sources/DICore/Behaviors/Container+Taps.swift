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

    /// Tells every tap that the build running now asks this tapped container for `type` under `name`, which it
    /// makes without a registration (see `ResolutionTap.recordImplicit`).
    func reportImplicit(_ type: Any.Type, name: String?) {
        guard let parent = ResolutionStack.current.asker else { return }
        for tap in ResolutionTaps.all { tap.recordImplicit(type, name: name, by: parent, asked: self) }
    }
}
