import DICore

/// `.matching(tag)`: one instance per nearest container with the tag, held and built by that container.
struct MatchingLifetime: LifetimeStrategy {
    let tag: String

    var keepsInstances: Bool { true }

    func placement(
        for registration: Registration,
        registeredIn: Container,
        requestedFrom: Container,
        resolution: ResolutionScope
    ) throws -> LifetimePlacement {
        var candidate: Container? = requestedFrom
        while let container = candidate, !container.isTagged(tag) { candidate = container.parent }
        guard let tagged = candidate else {
            throw ScopeErrors.noTaggedContainer(
                tag, registration, registeredIn: registeredIn, requestedFrom: requestedFrom, path: resolution.path
            )
        }
        // The tagged container builds the instance with its own resolver, so it must see the registration.
        var below: Container? = tagged
        while let container = below, container !== registeredIn { below = container.parent }
        guard below != nil else {
            throw ScopeErrors.taggedAboveRegistration(
                tag, registration, tagged: tagged, registeredIn: registeredIn, requestedFrom: requestedFrom,
                path: resolution.path
            )
        }
        let slot = tagged.slots.slot(for: registration) {
            InstanceSlot(retention: .strong, lockFreeReads: false)
        }
        return .slot(slot, holder: tagged, dependencies: tagged)
    }
}
