/// Where an instance of a registration comes from for one request; decided by a `LifetimeStrategy`.
///
/// Its containers are unretained: each is the asking container or one of its ancestors (the container that
/// registered the service, the nearest with a tag, the asker itself), which the asking container keeps alive
/// for as long as the resolve that asked for the placement runs. Retaining them would write to the shared
/// ancestors' reference counts on every request.
@usableFromInline
package enum LifetimePlacement: Sendable {
    /// Build a new instance, resolving its dependencies from `dependencies`.
    case build(dependencies: Unsafe.Unowned<Container>)
    /// Use the instance in `slot`, building it once with dependencies from `container`; the built instance is
    /// recorded as held by `container` (which disposes it when closed) unless the slot holds it weakly.
    case slot(InstanceSlot, in: Unsafe.Unowned<Container>)
    /// Let `provider` decide: it gets the build (with dependencies from `dependencies`) and returns the box to
    /// hand out. Nobody holds the instance for disposal unless the provider arranges it (`.graph`, `.weak` and
    /// custom storages of `DIScopes`).
    case provided(by: any InstanceProvider, dependencies: Unsafe.Unowned<Container>)
}
