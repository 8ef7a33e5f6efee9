import DICore

/// `.weak`: the registering container keeps the instance weakly and builds it with its own resolver.
struct WeakLifetime: LifetimeStrategy {
    var keepsInstances: Bool { true }

    func validate(_ registration: Registration, in container: Container) throws(RegistrationError) {
        switch TypeKind(registration.serviceType) {
        case .class, .existential:
            return
        case .value(let article):
            throw ScopeErrors.weakValueType(registration, kind: article, in: container)
        }
    }

    func placement(
        for registration: Registration,
        registeredIn: Container,
        requestedFrom: Container,
        resolution: ResolutionScope
    ) throws -> LifetimePlacement {
        let slot = registeredIn.slots.slot(for: registration) {
            InstanceSlot(retention: .weak, lockFreeReads: false)
        }
        return .provided(
            by: WeakProvider(slot: slot, container: registeredIn), dependencies: Unsafe.Unowned(registeredIn)
        )
    }
}
