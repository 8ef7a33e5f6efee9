import Synchronization

/// The waits-for graph of instance builds: which resolution waits for which other resolution to finish
/// building a shared instance.
///
/// Before anybody waits, it follows the chain from the builder it would wait for; if the chain comes back to
/// one of its own resolutions, the wait would never end, and it throws `circularDependency` naming the
/// cycle instead. The graph is touched only when two resolutions meet at an instance being built.
///
/// A waiter learns who builds a slot before it reaches this graph, so by then that builder may have finished
/// the slot and moved on, perhaps to wait for the very slot the waiter holds. A chain that closes is
/// therefore checked link by link (is each slot still being built by the resolution the edge names?) under
/// the graph's lock, which every waiter takes before blocking: only a chain whose links all hold is a
/// deadlock. A stale one sends the waiter back to look at the slot again.
final class BuildWaits: Sendable {
    static let shared = BuildWaits()

    private struct Edge {
        let owner: Int
        let registration: Registration
        let slot: InstanceSlot
    }

    private let edges = Lock<[Int: Edge]>([:])

    /// Runs `body` (which blocks until `owner` has finished `slot`) unless that would deadlock; returns
    /// without running it when `owner` no longer builds `slot`, so the caller looks at the slot again.
    func wait(
        _ resolution: ResolutionScope,
        for owner: Int,
        building registration: Registration,
        in slot: InstanceSlot,
        _ body: () throws -> Void
    ) throws {
        guard let token = try enter(resolution, for: owner, building: registration, in: slot) else { return }
        defer { leave(token) }
        try body()
    }

    /// The async form of `wait(_:for:building:in:_:)`.
    func wait(
        _ resolution: ResolutionScope,
        for owner: Int,
        building registration: Registration,
        in slot: InstanceSlot,
        _ body: () async throws -> Void
    ) async throws {
        guard let token = try enter(resolution, for: owner, building: registration, in: slot) else { return }
        defer { leave(token) }
        try await body()
    }

    /// Records the wait and returns the waiter's token; `nil` when the chain went stale (look again).
    private func enter(
        _ resolution: ResolutionScope,
        for owner: Int,
        building registration: Registration,
        in slot: InstanceSlot
    ) throws -> Int? {
        let tokens = resolution.tokens
        enum Outcome {
            case wait
            case stale
            /// Each link: a registration and the resolution building it.
            case cycle([(Registration, builder: Int)])
        }
        let outcome = edges.withLock { edges -> Outcome in
            var chain = [(registration, builder: owner)]
            var links = [(slot, builder: owner)]
            var current = owner
            var steps = 0
            while !tokens.contains(current) {
                guard let edge = edges[current], steps < 10_000 else {
                    edges[tokens[0]] = Edge(owner: owner, registration: registration, slot: slot)
                    return .wait
                }
                chain.append((edge.registration, builder: edge.owner))
                links.append((edge.slot, builder: edge.owner))
                current = edge.owner
                steps += 1
            }
            let stillHolds = links.allSatisfy { $0.0.isBeingBuilt(by: $0.builder) }
            return stillHolds ? .cycle(chain) : .stale
        }
        switch outcome {
        case .wait:
            return tokens[0]
        case .stale:
            return nil
        case .cycle(let cycle):
            let path = resolution.path
            let links = cycle.map { link in
                let element = PathElement(link.0, requested: link.0.serviceType, in: nil,
                                          onAnotherThread: !tokens.contains(link.builder))
                // A link this resolution builds itself is already on its path, with its container.
                let own = path.first { $0.location == element.location && $0.type == element.type }
                return element.onAnotherThread ? element : element.placed(in: own?.container)
            }
            throw ResolutionError.cycle(path: path + links)
        }
    }

    private func leave(_ token: Int) {
        edges.withLock { _ = $0.removeValue(forKey: token) }
    }
}
