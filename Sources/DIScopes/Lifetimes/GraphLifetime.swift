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
        .provided(by: GraphProvider(slot: resolution.graphSlot(for: registration)), dependencies: requestedFrom)
    }
}

/// Builds into the resolution's slot without recording a holder: when the resolve ends, the slot goes.
struct GraphProvider: InstanceProvider {
    let slot: InstanceSlot

    func instance(of registration: Registration, resolution: ResolutionScope, build: () throws -> AnyObject)
        throws -> AnyObject
    {
        try slot.instance(of: registration, resolution: resolution, build: build).box
    }

    func instance(
        of registration: Registration,
        resolution: ResolutionScope,
        build: () async throws -> AnyObject
    ) async throws -> AnyObject {
        try await slot.instance(of: registration, resolution: resolution, build: build).box
    }
}
