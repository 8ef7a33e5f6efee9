/// The resolution a lifetime is asked to place an instance for: a synchronous one on this thread or an
/// async one in this task.
@usableFromInline
package struct ResolutionScope {
    enum Storage {
        /// The thread's stack, unretained: the thread key holds it for the thread's life, and a scope lives
        /// only for the resolve that made it, on that thread.
        case thread(Unsafe.Unowned<ResolutionStack>)
        case task(AsyncResolution?)
    }

    let storage: Storage
    /// The token a build started by this request runs under: the thread's for a synchronous build (nested
    /// builds on the thread share it), a new one for an `async` build (its node gets it, so tasks started
    /// inside one factory build under tokens of their own).
    let buildToken: Int

    static var currentThread: ResolutionScope {
        let stack = ResolutionStack.currentUnretained
        return ResolutionScope(storage: .thread(stack), buildToken: stack.with(\.token))
    }

    /// The scope of an `async` request made inside `node` (`nil` at the top level).
    static func task(_ node: AsyncResolution?) -> ResolutionScope {
        ResolutionScope(storage: .task(node), buildToken: ResolutionTokens.next())
    }

    /// The slot holding this top-level resolve's `.graph` instance of `registration`.
    package func graphSlot(for registration: Registration) -> InstanceSlot {
        switch storage {
        case .thread(let unowned):
            let stack = unowned.object
            if let outer = stack.enclosingAsync {
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

    /// The tokens of every build this request is nested in, innermost first: what it must never wait for.
    var chain: [Int] {
        switch storage {
        case .thread(let stack): stack.with { [$0.token] + ($0.enclosingAsync?.tokens ?? []) }
        case .task(let node): node?.tokens ?? []
        }
    }

    /// The build this request was made from, when there is one: its registration and the container building it.
    var asker: (registration: Registration, container: Container)? {
        switch storage {
        case .thread(let stack): stack.with(\.asker)
        case .task(let node): node.map { ($0.registration, $0.container) }
        }
    }

    /// The active path from the top-level request, for errors raised while placing an instance.
    package var path: [PathElement] {
        switch storage {
        case .thread(let stack): stack.with(\.path)
        case .task(let node): node?.path ?? []
        }
    }
}
