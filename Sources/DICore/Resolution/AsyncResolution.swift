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
    /// `.graph` instances of this top-level async resolve, shared by all its nodes.
    let graph: GraphInstances

    init(_ registration: Registration, in container: Container, requested: Any.Type, parent: AsyncResolution?) {
        self.registration = registration
        self.container = container
        self.requested = requested
        self.parent = parent
        self.token = ResolutionTokens.next()
        self.graph = parent?.graph ?? GraphInstances()
    }

    @TaskLocal static var current: AsyncResolution?

    /// How many async resolutions are running; while none is, synchronous resolution skips the task-local read.
    static let active = Atomic<Int>(0)

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

/// The `.graph` instances of one async top-level resolve.
package final class GraphInstances: Sendable {
    private let slots = Lock<[ObjectIdentifier: InstanceSlot]>([:])

    func slot(for registration: Registration) -> InstanceSlot {
        slots.withLock { slots in
            if let slot = slots[ObjectIdentifier(registration)] { return slot }
            let slot = InstanceSlot(retention: .strong, lockFreeReads: false)
            slots[ObjectIdentifier(registration)] = slot
            return slot
        }
    }
}

/// The resolution a lifetime is asked to place an instance for: a synchronous one on this thread or an
/// async one in this task.
@usableFromInline
package struct ResolutionScope {
    enum Storage {
        case thread(ResolutionStack)
        case task(AsyncResolution?)
    }

    let storage: Storage

    static var currentThread: ResolutionScope { ResolutionScope(storage: .thread(.current)) }

    /// The slot holding this top-level resolve's `.graph` instance of `registration`.
    package func graphSlot(for registration: Registration) -> InstanceSlot {
        switch storage {
        case .thread(let stack):
            if let outer = stack.asyncOuter ?? (stack.isEmpty ? AsyncResolution.currentIfActive : nil) {
                return outer.graph.slot(for: registration)
            }
            let id = ObjectIdentifier(registration)
            if let slot = stack.graph[id] { return slot }
            let slot = InstanceSlot(retention: .strong, lockFreeReads: false)
            stack.graph[id] = slot
            return slot
        case .task(let node):
            return node?.graph.slot(for: registration)
                ?? InstanceSlot(retention: .strong, lockFreeReads: false)
        }
    }

    /// Whether a `.graph` instance can outlive the build that asked for it: only inside a resolve.
    var tokens: [Int] {
        switch storage {
        case .thread(let stack): stack.tokens
        case .task(let node): node?.tokens ?? [ResolutionTokens.next()]
        }
    }

    /// The active path from the top-level request, for errors raised while placing an instance.
    package var path: [PathElement] {
        switch storage {
        case .thread(let stack): stack.path
        case .task(let node): node?.path ?? []
        }
    }
}
