import DICore

/// `.cached`: one instance per registering container, held and built by it, until reset.
///
/// Unlike `.singleton` it is read under the slot's lock rather than through the lock-free published pointer,
/// because a slot read without a lock could be emptied under a reader.
struct CachedLifetime: LifetimeStrategy {
    var keepsInstances: Bool { true }

    func placement(
        for registration: Registration,
        registeredIn: Container,
        requestedFrom: Container,
        resolution: ResolutionScope
    ) throws -> LifetimePlacement {
        let slot = registeredIn.slots.slot(for: registration)
        return .slot(slot, in: Unsafe.Unowned(registeredIn))
    }
}
