import DICore

/// `.scoped`: one instance per asking container, held by it, built with its resolver.
struct ScopedLifetime: LifetimeStrategy {
    var keepsInstances: Bool { true }

    func placement(
        for registration: Registration,
        registeredIn: Container,
        requestedFrom: Container,
        resolution: ResolutionScope
    ) throws -> LifetimePlacement {
        let slot = requestedFrom.slots.slot(for: registration)
        return .slot(slot, in: Unsafe.Unowned(requestedFrom))
    }
}
