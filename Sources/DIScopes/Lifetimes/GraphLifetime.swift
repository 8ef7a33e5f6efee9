import DICore

/// `.graph`: one instance per top-level resolve, kept by the resolution (never by a container), built with
/// the asking container's resolver.
struct GraphLifetime: LifetimeStrategy {
    /// Instances do not outlive the resolve that built them.
    var keepsInstances: Bool { false }

    func placement(
        for registration: Registration,
        registeredIn: Container,
        requestedFrom: Container,
        resolution: ResolutionScope
    ) throws -> LifetimePlacement {
        .provided(
            by: GraphProvider(slot: resolution.graphSlot(for: registration)),
            dependencies: Unsafe.Unowned(requestedFrom)
        )
    }
}
