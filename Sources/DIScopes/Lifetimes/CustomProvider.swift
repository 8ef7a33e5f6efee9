import DICore

struct CustomProvider: InstanceProvider {
    let lifetime: CustomLifetime
    let container: Container

    func instance(of registration: Registration, resolution: ResolutionScope, build: () throws -> AnyObject)
        throws -> AnyObject
    {
        let key = InstanceKey(registration, in: container)
        if let box = try lifetime.stored(key, registration, in: container, path: resolution.path) { return box }
        let gate = lifetime.gate(for: key)
        return try gate.instance(of: registration, resolution: resolution, holder: Unsafe.Unowned(container)) {
            if let box = try lifetime.stored(key, registration, in: container, path: resolution.path) {
                lifetime.retire(gate, for: key)
                return box
            }
            let generation = lifetime.releases(of: key, at: gate)
            let box = try build()
            if !lifetime.store(box, for: key, registration, builtAfter: generation, at: gate) {
                try container.hold(InstanceSlot(parking: box), of: registration, requested: registration.serviceType)
            }
            return box
        }.box
    }

    func instance(
        of registration: Registration,
        resolution: ResolutionScope,
        build: () async throws -> AnyObject
    ) async throws -> AnyObject {
        let key = InstanceKey(registration, in: container)
        if let box = try lifetime.stored(key, registration, in: container, path: resolution.path) { return box }
        let gate = lifetime.gate(for: key)
        return try await gate.instance(of: registration, resolution: resolution, holder: Unsafe.Unowned(container)) {
            if let box = try lifetime.stored(key, registration, in: container, path: resolution.path) {
                lifetime.retire(gate, for: key)
                return box
            }
            let generation = lifetime.releases(of: key, at: gate)
            let box = try await build()
            if !lifetime.store(box, for: key, registration, builtAfter: generation, at: gate) {
                try await container.holdAsync(
                    InstanceSlot(parking: box), of: registration, requested: registration.serviceType
                )
            }
            return box
        }.box
    }
}
