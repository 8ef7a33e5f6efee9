/// What a container keeps under its one lock besides its registrations (which its `Registry` guards): its
/// children, the instances it holds, its lifetimes' slots and its behaviours.
///
/// One lock for the four: a request's container would otherwise allocate and set up four mutexes and
/// conditions it hardly ever contends for. No code holds it while taking another lock of the same container,
/// and none runs user code under it (a slot's `make` builds an empty slot).
struct ContainerState {
    /// The children made so far, weakly: a dropped child is freed, and forgotten at the next `child(name:)`.
    var children: [WeakContainer] = []
    var held = HeldInstances()
    var slots = SlotStore.Slots()
    var behaviors: [any ContainerBehavior] = []
}

/// The instances a container holds, and whether it still takes more.
struct HeldInstances {
    var instances: [HeldInstance] = []
    var isClosed = false
}

/// A child as its parent lists it.
final class WeakContainer: Sendable {
    weak let container: Container?

    init(_ container: Container) { self.container = container }
}
