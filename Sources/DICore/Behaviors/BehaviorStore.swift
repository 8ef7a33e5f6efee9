import Synchronization

/// The behaviours added to one container (not its ancestors').
package struct BehaviorStore: Sendable {
    private let behaviors = Lock<[any ContainerBehavior]>([])

    /// How many behaviours were ever added to any container; while none were, registration skips the
    /// walk over the ancestors' behaviour lists.
    private static let added = Atomic<Int>(0)

    package init() {}

    package static var anyAdded: Bool { added.load(ordering: .relaxed) != 0 }

    package func append(_ behavior: any ContainerBehavior) {
        Self.added.add(1, ordering: .relaxed)
        behaviors.withLock { $0.append(behavior) }
    }

    package var all: [any ContainerBehavior] { behaviors.withLock { $0 } }
}
