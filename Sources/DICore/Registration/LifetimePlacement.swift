/// Where an instance of a registration comes from for one request; decided by a `LifetimeStrategy`.
@usableFromInline
package enum LifetimePlacement: Sendable {
    /// Build a new instance, resolving its dependencies from `dependencies`.
    case build(dependencies: Container)
    /// Use the instance in `slot`, building it once with dependencies from `dependencies`; the built instance
    /// is recorded as held by `holder` (which disposes it when closed) unless the slot holds it weakly.
    case slot(InstanceSlot, holder: Container, dependencies: Container)
    /// Let `provider` decide: it gets the build (with dependencies from `dependencies`) and returns the box to
    /// hand out. Nobody holds the instance for disposal unless the provider arranges it (`.graph`, `.weak` and
    /// custom storages of `DIScopes`).
    case provided(by: any InstanceProvider, dependencies: Container)
}
