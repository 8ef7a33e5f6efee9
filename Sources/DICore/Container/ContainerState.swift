/// What a container keeps under its one lock: its registrations' state (for its `Registry`), the instances it
/// holds, its lifetimes' slots and its behaviours. (Its children are listed apart, in `ChildList`, whose first
/// shards are made under this lock.)
///
/// One lock for the four: a request's container would otherwise allocate and set up a mutex for each, which
/// it hardly ever contends for. No code holds it while taking it again (it is not recursive), and none runs
/// user code under it (a slot's `make` builds an empty slot) or drops under it what could be the last
/// reference to a child or a registration (a child's `deinit` takes a lock of its parent's list, and a
/// registration's factory may have captured a child).
struct ContainerState {
    /// The registry's tables and pending registrations; read and changed through `Registry` only.
    var registry = Registry.State()
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
