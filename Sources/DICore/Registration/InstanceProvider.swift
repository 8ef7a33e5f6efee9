/// Hands out the instance of a registration for one request, given the engine's way to build it; for
/// lifetimes that keep instances somewhere else than a container's held slots.
@usableFromInline
package protocol InstanceProvider: Sendable {
    /// The box to hand out; `build` runs the factory on the active resolution path.
    func instance(of registration: Registration, resolution: ResolutionScope, build: () throws -> AnyObject)
        throws -> AnyObject

    /// The box to hand out for an `async` resolution.
    func instance(
        of registration: Registration,
        resolution: ResolutionScope,
        build: () async throws -> AnyObject
    ) async throws -> AnyObject
}
