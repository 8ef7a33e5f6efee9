import Synchronization

/// An instance held by a container, through the slot that holds it.
package struct HeldInstance: Sendable {
    package let slot: InstanceSlot
    package let registration: Registration
}
