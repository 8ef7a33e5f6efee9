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

    private let edges = Mutex<[Int: Edge]>([:])

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
        let cycle = edges.withLock { edges -> [Registration]? in
            var chain = [registration]
            var current = owner
            var steps = 0
            while !tokens.contains(current) {
                guard let edge = edges[current], steps < 10_000 else {
                    edges[tokens[0]] = Edge(owner: owner, registration: registration)
                    return nil
                }
                chain.append(edge.registration)
                current = edge.owner
                steps += 1
            }
            return chain
        }
        if let cycle {
            let elsewhere = cycle.map { PathElement($0, requested: $0.serviceType, in: nil, onAnotherThread: true) }
            throw ResolutionError.cycle(path: resolution.path + elsewhere)
        }
        return tokens[0]
    }

    private func leave(_ token: Int) {
        edges.withLock { _ = $0.removeValue(forKey: token) }
    }
}
