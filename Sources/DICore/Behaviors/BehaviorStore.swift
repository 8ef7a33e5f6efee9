import Synchronization

/// The behaviours added to one container (not its ancestors'): a view of the list in the container's state,
/// under the container's lock.
package struct BehaviorStore: Sendable {
    let state: Lock<ContainerState>

    /// How many behaviours were ever added to any container; while none were, registration skips the
    /// walk over the ancestors' behaviour lists.
    private static let added = Atomic<Int>(0)

    package static var anyAdded: Bool { added.load(ordering: .relaxed) != 0 }

    package func append(_ behavior: any ContainerBehavior) {
        Self.added.add(1, ordering: .relaxed)
        state.withLock { $0.behaviors.append(behavior) }
    }

    package var all: [any ContainerBehavior] { state.withLock { $0.behaviors } }
}
