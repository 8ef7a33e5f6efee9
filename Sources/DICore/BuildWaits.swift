import Synchronization

/// The waits-for graph of instance builds: which resolution waits for which other resolution to finish
/// building a shared instance.
///
/// Before anybody waits, it follows the chain from the builder it would wait for; if the chain comes back to
/// one of its own resolutions, the wait would never end, and it throws `circularDependency` naming the
/// cycle instead. The graph is touched only when two resolutions meet at an instance being built.
final class BuildWaits: Sendable {
    static let shared = BuildWaits()

    private struct Edge {
        let owner: Int
        let registration: Registration
    }

    private let edges = Lock<[Int: Edge]>([:])

    func wait<R>(
        _ resolution: ResolutionScope,
        for owner: Int,
        building registration: Registration,
        _ body: () throws -> R
    ) throws -> R {
        let token = try enter(resolution, for: owner, building: registration)
        defer { leave(token) }
        return try body()
    }

    func wait<R>(
        _ resolution: ResolutionScope,
        for owner: Int,
        building registration: Registration,
        _ body: () async throws -> R
    ) async throws -> R {
        let token = try enter(resolution, for: owner, building: registration)
        defer { leave(token) }
        return try await body()
    }

    private func enter(_ resolution: ResolutionScope, for owner: Int, building registration: Registration)
        throws -> Int
    {
        let tokens = resolution.tokens
        // Each link: a registration and the resolution building it.
        let cycle = edges.withLock { edges -> [(Registration, builder: Int)]? in
            var chain = [(registration, builder: owner)]
            var current = owner
            var steps = 0
            while !tokens.contains(current) {
                guard let edge = edges[current], steps < 10_000 else {
                    edges[tokens[0]] = Edge(owner: owner, registration: registration)
                    return nil
                }
                chain.append((edge.registration, builder: edge.owner))
                current = edge.owner
                steps += 1
            }
            return chain
        }
        if let cycle {
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
        return tokens[0]
    }

    private func leave(_ token: Int) {
        edges.withLock { _ = $0.removeValue(forKey: token) }
    }
}
