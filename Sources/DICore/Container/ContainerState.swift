/// What a container keeps under its one lock besides its registrations (which its `Registry` guards): its
/// children, the instances it holds, its lifetimes' slots and its behaviours.
///
/// One lock for the four: a request's container would otherwise allocate and set up four mutexes and
/// conditions it hardly ever contends for. No code holds it while taking another lock of the same container,
/// and none runs user code under it (a slot's `make` builds an empty slot) or drops under it what could be the
/// last reference to a child (a child's `deinit` takes its parent's lock to leave the list).
struct ContainerState {
    /// The children that are alive, unretained: a child takes itself out of the list in its `deinit`. Read
    /// them through `Container.children`.
    var children: [Unsafe.Unowned<Container>] = []
    var held = HeldInstances()
    var slots = SlotStore.Slots()
    var behaviors: [any ContainerBehavior] = []
}

/// The instances a container holds, and whether it still takes more.
struct HeldInstances {
    var instances: [HeldInstance] = []
    var isClosed = false

    /// How many entries the first append makes room for: a request's container holds a few instances, and
    /// growing an array one step at a time from empty reallocates it at the second and third.
    static let firstCapacity = 4

    mutating func append(_ instance: HeldInstance) {
        if instances.capacity == 0 { instances.reserveCapacity(Self.firstCapacity) }
        instances.append(instance)
    }
}
