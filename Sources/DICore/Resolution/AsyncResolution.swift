import Synchronization

/// One registration being built by an `async` resolution; the chain of them is the async path.
///
/// An async factory may suspend and resume on another thread, so its path travels in a task-local instead of
/// the thread-local `ResolutionStack`. Each node has its own token for the waits-for graph, since tasks
/// started inside one factory (`async let`) may wait on each other's builds.
package final class AsyncResolution: Sendable {
    let registration: Registration
    let container: Container
    let requested: Any.Type
    let parent: AsyncResolution?
    let token: Int
    /// How many builds deep this node is: 1 for the outermost. Kept, not counted, so that checking the depth
    /// limit at each level of a long chain does not walk the whole chain again.
    let depth: Int
    /// `.graph` instances of this top-level async resolve, shared by all its nodes.
    let graph: GraphInstances

    init(
        _ registration: Registration,
        in container: Container,
        requested: Any.Type,
        parent: AsyncResolution?,
        token: Int
    ) {
        self.registration = registration
        self.container = container
        self.requested = requested
        self.parent = parent
        self.token = token
        self.depth = (parent?.depth ?? 0) + 1
        self.graph = parent?.graph ?? GraphInstances()
    }

    @TaskLocal static var current: AsyncResolution?

    /// How many async resolutions are running; while none is, synchronous resolution skips the task-local read.
    static let active = Atomic<Int>(0)

    /// Whether any async resolution is running anywhere: when not, no synchronous resolve is nested in one.
    static var isAnyActive: Bool {
        active.load(ordering: .relaxed) != 0
    }

    static var currentIfActive: AsyncResolution? {
        active.load(ordering: .relaxed) == 0 ? nil : current
    }

    func contains(_ registration: Registration, in container: Container) -> Bool {
        var node: AsyncResolution? = self
        while let current = node {
            if current.registration === registration && current.container === container { return true }
            node = current.parent
        }
        return false
    }

    var path: [PathElement] {
        var elements: [PathElement] = []
        var node: AsyncResolution? = self
        while let current = node {
            elements.append(PathElement(current.registration, requested: current.requested, in: current.container))
            node = current.parent
        }
        return elements.reversed()
    }

    var tokens: [Int] {
        var tokens: [Int] = []
        var node: AsyncResolution? = self
        while let current = node {
            tokens.append(current.token)
            node = current.parent
        }
        return tokens
    }
}
