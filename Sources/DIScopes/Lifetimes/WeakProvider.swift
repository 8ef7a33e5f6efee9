import DICore

/// Builds into a weak slot, refusing a value instance (possible behind a protocol existential), which a weak
/// slot could not keep: every resolve would silently build a new one.
struct WeakProvider: InstanceProvider {
    let slot: InstanceSlot
    let container: Container

    func instance(of registration: Registration, resolution: ResolutionScope, build: () throws -> AnyObject)
        throws -> AnyObject
    {
        try slot.instance(of: registration, resolution: resolution, holder: Unsafe.Unowned(container)) {
            try checked(try build(), registration, resolution)
        }.box
    }

    func instance(
        of registration: Registration,
        resolution: ResolutionScope,
        build: () async throws -> AnyObject
    ) async throws -> AnyObject {
        try await slot.instance(of: registration, resolution: resolution, holder: Unsafe.Unowned(container)) {
            try checked(try await build(), registration, resolution)
        }.box
    }

    private func checked(_ box: AnyObject, _ registration: Registration, _ resolution: ResolutionScope) throws
        -> AnyObject
    {
        guard registration.body.object(box) == nil else { return box }
        throw ScopeErrors.weakValueInstance(
            registration, value: registration.body.unbox(box), in: container, path: resolution.path
        )
    }
}
