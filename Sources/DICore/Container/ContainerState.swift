/// What a container keeps under its one lock: its registrations' state (for its `Registry`), its children,
/// the instances it holds, its lifetimes' slots and its behaviours.
///
/// One lock for the five: a request's container would otherwise allocate and set up a mutex for each, which
/// it hardly ever contends for. No code holds it while taking it again (it is not recursive), and none runs
/// user code under it (a slot's `make` builds an empty slot) or drops under it what could be the last
/// reference to a child or a registration (a child's `deinit` takes its parent's lock to leave the list, and
/// a registration's factory may have captured a child).
struct ContainerState {
    /// The registry's tables and pending registrations; read and changed through `Registry` only.
    var registry = Registry.State()
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
}

extension Array {
    /// Appends `element`, making room for four at the first append: a request's container holds a few
    /// instances in a few slots, and an array grown one step at a time from empty reallocates at the second
    /// and the third.
    mutating func appendMakingRoomForAFew(_ element: Element) {
        if capacity == 0 { reserveCapacity(4) }
        append(element)
    }
}
