import DICore

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
