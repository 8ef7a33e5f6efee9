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
    private let gates = Lock<[InstanceKey: Gate]>([:])

    /// Where the askers of a missing instance meet, and how many times its key was released (reset) since.
    private struct Gate {
        let slot: InstanceSlot
        var releases = 0
    }

    init(name: String, storage: any InstanceStorage) {
        self.name = name
        self.storage = storage
    }

    var keepsInstances: Bool { true }

    /// Refuses a name that is empty or a built-in scope's: scopes are told apart by name, so `reset(.cached)`,
    /// `validate()` and the graph would take a custom scope named "cached" for the built-in one.
    func validate(_ registration: Registration, in container: Container) throws(RegistrationError) {
        let builtIn: [Scope] = [.transient, .singleton, .scoped, .graph, .weak, .cached]
        guard name.isEmpty || builtIn.contains(where: { $0.name == name }) || name.hasPrefix("matching(") else {
            return
        }
        throw ScopeErrors.customScopeName(name, registration, in: container)
    }

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
        let key = InstanceKey(registration, in: container)
        // Counted on the key's gate, in the lock section in which a build stores (see `store(_:…)`).
        let released = gates.withLock { gates in
            gates[key]?.releases += 1
            return storage.release(key)
        }
        return released.map { [$0.value] } ?? []
    }

    /// How many times `key` was released since `gate` was made: what a build reads before it begins.
    func releases(of key: InstanceKey, at gate: InstanceSlot) -> Int {
        gates.withLock { gates in gates[key].map { $0.slot === gate ? $0.releases : 0 } ?? 0 }
    }

    /// Stores `box`, the instance of `registration` just built for `key` by the build that holds `gate`, begun
    /// when the key had been released `generation` times, and retires the gate. Returns `false` when a release
    /// overtook the build: the instance is not stored, and the caller has the container hold it apart.
    ///
    /// In one lock section with `release`, so that neither misses the other. A build that a release overtook
    /// does not store its instance, which would otherwise be the next resolve's: the instance is still handed
    /// to its asker and to those waiting at the gate, and the container holds it apart until it closes (or,
    /// closed meanwhile, disposes it and refuses: `Container.hold`).
    func store(
        _ box: AnyObject,
        for key: InstanceKey,
        _ registration: Registration,
        builtAfter generation: Int,
        at gate: InstanceSlot
    ) -> Bool {
        gates.withLock { gates -> Bool in
            let overtaken = gates[key]?.releases != generation
            if gates[key]?.slot === gate { gates[key] = nil }
            if !overtaken { storage.store(StoredInstance(box: box, key: key, registration: registration), for: key) }
            return !overtaken
        }
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
            if let gate = gates[key] { return gate.slot }
            let gate = InstanceSlot(retention: .strong, lockFreeReads: false)
            gates[key] = Gate(slot: gate)
            return gate
        }
    }

    func retire(_ gate: InstanceSlot, for key: InstanceKey) {
        gates.withLock { gates in
            if gates[key]?.slot === gate { gates[key] = nil }
        }
    }
}
