import DICore

/// A custom scope: instances live in a user's `InstanceStorage`, one per registration, built with the
/// registering container's resolver.
///
/// The storage is the only record of an instance, so that it may drop instances whenever it likes (expiry, a
/// log-out). Building exactly once when many ask together needs a gate the storage cannot provide: while an
/// instance is missing, askers meet at one `InstanceSlot` per key; its builder looks in the storage again
/// (an earlier builder may just have stored one), builds, stores, and retires the slot. A late asker holding
/// the retired slot still finds the instance in it.
final class CustomLifetime: LifetimeStrategy {
    let name: String
    let storage: any InstanceStorage
    private let gates = Lock<[InstanceKey: InstanceSlot]>([:])

    init(name: String, storage: any InstanceStorage) {
        self.name = name
        self.storage = storage
    }

    var keepsInstances: Bool { true }

    func placement(
        for registration: Registration,
        registeredIn: Container,
        requestedFrom: Container,
        resolution: ResolutionScope
    ) throws -> LifetimePlacement {
        // The storage keys instances by registration, so a test container resolving its base's registration
        // would be handed the base's instance: it keeps its own in a slot instead, and never touches the storage.
        if registeredIn.testing != nil, registeredIn.registry.registration(for: registration.key) !== registration {
            let slot = registeredIn.slots.slot(for: registration)
            return .slot(slot, in: Unsafe.Unowned(registeredIn))
        }
        return .provided(
            by: CustomProvider(lifetime: self, container: registeredIn), dependencies: Unsafe.Unowned(registeredIn)
        )
    }

    func release(_ registration: Registration, in container: Container) -> [Any] {
        if case .alias = registration.kind { return [] }
        guard let released = storage.release(InstanceKey(registration, in: container)) else { return [] }
        return [released.value]
    }

    /// The box stored under `key`, checking that the storage returned what was stored under that key.
    func stored(
        _ key: InstanceKey,
        _ registration: Registration,
        in container: Container,
        path: @autoclosure () -> [PathElement]
    ) throws -> AnyObject? {
        guard let stored = storage.instance(for: key) else { return nil }
        guard stored.key == key else {
            throw ScopeErrors.storageMixedKeys(
                scope: name, storage: storage, asked: key, got: stored.key, registration, in: container, path: path()
            )
        }
        return stored.box
    }

    func gate(for key: InstanceKey) -> InstanceSlot {
        gates.withLock { gates in
            if let gate = gates[key] { return gate }
            let gate = InstanceSlot(retention: .strong, lockFreeReads: false)
            gates[key] = gate
            return gate
        }
    }

    func retire(_ gate: InstanceSlot, for key: InstanceKey) {
        gates.withLock { gates in
            if gates[key] === gate { gates[key] = nil }
        }
    }
}
