import Synchronization

/// An instance held by a container, through the slot that holds it.
package struct HeldInstance: Sendable {
    package let slot: InstanceSlot
    package let registration: Registration
    /// The number of its build among those of the container's instances (`KeptCells.nextBuild()`), so that
    /// closing disposes the held ones and those in cells newest first; `0` where the order does not matter.
    package let build: Int

    package init(slot: InstanceSlot, registration: Registration, build: Int = 0) {
        self.slot = slot
        self.registration = registration
        self.build = build
    }
}
