import DICore

/// `.matching(tag)`: one instance per nearest container with the tag, held and built by that container.
struct MatchingLifetime: LifetimeStrategy {
    let tag: String

    var keepsInstances: Bool { true }

    var holderTag: String? { tag }

    func placement(
        for registration: Registration,
        registeredIn: Container,
        requestedFrom: Container,
        resolution: ResolutionScope
    ) throws -> LifetimePlacement {
        // The walks count no references: the ancestors are shared by every request's container.
        guard let tagged = requestedFrom.nearestTagged(tag) else {
            throw ScopeErrors.noTaggedContainer(
                tag, registration, registeredIn: registeredIn, requestedFrom: requestedFrom, path: resolution.path
            )
        }
        // The tagged container builds the instance with its own resolver, so it must see the registration.
        guard tagged.with({ $0.sees(registeredIn) }) else {
            throw ScopeErrors.taggedAboveRegistration(
                tag, registration, tagged: tagged.object, registeredIn: registeredIn, requestedFrom: requestedFrom,
                path: resolution.path
            )
        }
        let slot = tagged.with { $0.slots.slot(for: registration) }
        return .slot(slot, in: tagged)
    }
}
