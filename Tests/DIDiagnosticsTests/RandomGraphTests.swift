import DICore
import DIDiagnostics
import Testing

/// Random graphs checked against a small reference model: which dependencies are missing, and how many
/// separate loops (strongly connected components with a cycle) there are.
@Suite struct RandomGraphTests {
    @Test(arguments: 0..<20)
    func findingsMatchTheReferenceModel(round: Int) throws {
        let seed = UInt64.random(in: 1...UInt64.max)
        print("RandomGraphTests round \(round) seed \(seed)")
        var random = SplitMix64(seed: seed)
        let count = Int.random(in: 2...24, using: &random)
        // Indices at or past `count` are never registered: depending on one is a missing dependency.
        var dependencies: [[Int]] = []
        for _ in 0..<count {
            let degree = Int.random(in: 0...2, using: &random)
            dependencies.append((0..<degree).map { _ in
                Int.random(in: 0...10, using: &random) < 8 ? Int.random(in: 0..<count, using: &random)
                    : count + Int.random(in: 0..<3, using: &random)
            })
        }

        let app = Container(name: "app")
        for (index, deps) in dependencies.enumerated() {
            try register(node(index), deps.map(node), in: app)
        }
        let report = app.validate()

        // Reference: missing pairs, and cyclic components by transitive closure.
        let missing = Set(dependencies.enumerated().flatMap { index, deps in
            deps.filter { $0 >= count }.map { "\(index)->\($0)" }
        })
        var reach = [[Bool]](repeating: [Bool](repeating: false, count: count), count: count)
        for (index, deps) in dependencies.enumerated() { for dep in deps where dep < count { reach[index][dep] = true } }
        for k in 0..<count { for i in 0..<count where reach[i][k] { for j in 0..<count where reach[k][j] { reach[i][j] = true } } }
        var components = Set<[Int]>()
        for i in 0..<count where reach[i][i] {
            components.insert((0..<count).filter { reach[i][$0] && reach[$0][i] })
        }

        let foundMissing = report.findings.filter { $0.id == .missing }
        #expect(foundMissing.count == missing.count, "seed \(seed)")
        let foundCycles = report.findings.filter { $0.id == .cycle }
        #expect(foundCycles.count == components.count, "seed \(seed)")
        // Each printed loop closes on itself and stays inside one component.
        for cycle in foundCycles {
            #expect(cycle.path.first?.description == cycle.path.last?.description, "seed \(seed)")
        }
        // Nothing else: every registration is an autoregister, so every edge is known.
        #expect(report.findings.allSatisfy { [.missing, .cycle].contains($0.id) }, "seed \(seed)")
    }
}

/// A distinct type per index (6 bits spelled as nested generics).
private func node(_ index: Int) -> any RandomNode.Type {
    var type: any RandomNode.Type = Leaf.self
    for bit in 0..<6 { type = (index >> bit) & 1 == 1 ? one(type) : zero(type) }
    return type
}
private func one<Rest: RandomNode>(_: Rest.Type) -> any RandomNode.Type { BitOne<Rest>.self }
private func zero<Rest: RandomNode>(_: Rest.Type) -> any RandomNode.Type { BitZero<Rest>.self }

private protocol RandomNode: Sendable { init() }
private struct Leaf: RandomNode {}
private struct BitOne<Rest: RandomNode>: RandomNode {}
private struct BitZero<Rest: RandomNode>: RandomNode {}

private func register(_ service: any RandomNode.Type, _ deps: [any RandomNode.Type], in app: Container) throws {
    switch deps.count {
    case 0: try register0(service, in: app)
    case 1: try register1(service, deps[0], in: app)
    default: try register2(service, deps[0], deps[1], in: app)
    }
}
private func register0<S: RandomNode>(_: S.Type, in app: Container) throws {
    try app.autoregister(S.self, scope: .singleton) { S() }
}
private func register1<S: RandomNode, A: RandomNode>(_: S.Type, _: A.Type, in app: Container) throws {
    try app.autoregister(S.self, scope: .singleton) { (_: A) in S() }
}
private func register2<S: RandomNode, A: RandomNode, B: RandomNode>(
    _: S.Type, _: A.Type, _: B.Type, in app: Container
) throws {
    try app.autoregister(S.self, scope: .singleton) { (_: A, _: B) in S() }
}

/// A small, seedable generator, so a failing round can be replayed from its printed seed.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
