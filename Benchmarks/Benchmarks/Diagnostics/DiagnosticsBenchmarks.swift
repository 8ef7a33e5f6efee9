import Benchmark
import BenchmarkFixtures
import DICore
import DIDiagnostics

// DIToolkit's diagnostics (DIDiagnostics), named `Container.` like every DIToolkit row: `validate()` and
// `graph().text()` of a 5-level tree of N registrations, each with two declared dependencies, and the
// resolve rows in a container that was traced once (tracing must cost nothing once it is off).

let benchmarks: @Sendable () -> Void = {
    for size in DiagnosticsTree.sizes {
        let tree = DiagnosticsTree(registrations: size)
        Benchmark(
            "Container.validate-\(Scenario.label(size))",
            configuration: Scenario.macro(maxDuration: .seconds(2), maxIterations: 200)
        ) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(tree.leaf.validate())
            }
        }
        Benchmark(
            "Container.graph-text-\(Scenario.label(size))",
            configuration: Scenario.macro(maxDuration: .seconds(2), maxIterations: 200)
        ) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(tree.root.graph().text())
            }
        }
    }

    // The same singleton and transient resolves as `Container.resolve-singleton` / `-transient`, in a
    // container that was traced once and no longer is: the rows must match the untraced ones.
    let app = Container(name: "app")
    try! app.register(Logger.self, scope: .singleton) { _ in Logger() }
    try! app.register(Cache.self) { _ in Cache() }
    blackHole(try! app.resolve(Logger.self))
    blackHole(app.trace { blackHole(try? app.resolve(Logger.self)) })
    Benchmark("Container.resolve-singleton-after-trace", configuration: Scenario.micro) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try app.resolve(Logger.self))
        }
    }
    Benchmark("Container.resolve-transient-after-trace", configuration: Scenario.micro) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try app.resolve(Cache.self))
        }
    }
}

/// A root and four levels of children (five containers), holding `registrations` services spread evenly;
/// service `i` depends on services `i - 1` and `i / 2`, which are registered in the same container or an
/// ancestor, so the graph is valid and every edge is declared.
struct DiagnosticsTree {
    static let sizes = [100, 1_000, 10_000]

    let root: Container
    let leaf: Container
    private let levels: [Container]

    init(registrations: Int) {
        var levels = [Container(name: "root")]
        for level in 1..<5 { levels.append(levels[level - 1].child(name: "level-\(level)")) }
        let perLevel = (registrations + 4) / 5
        for index in 0..<registrations {
            let container = levels[min(index / perLevel, 4)]
            let service = Self.nodeType(index)
            if index == 0 {
                try! register(service, in: container)
            } else {
                try! register(service, dependingOn: Self.nodeType(index - 1), and: Self.nodeType(index / 2),
                              in: container)
            }
        }
        self.levels = levels
        root = levels[0]
        leaf = levels[4]
    }

    /// A distinct type per index: its 14 bits spelled as nested generic types (`One<Zero<…<End>>>`).
    static func nodeType(_ index: Int) -> any DiagnosticsNode.Type {
        var type: any DiagnosticsNode.Type = End.self
        for bit in 0..<14 {
            type = (index >> bit) & 1 == 1 ? one(type) : zero(type)
        }
        return type
    }

    private static func one<Rest: DiagnosticsNode>(_: Rest.Type) -> any DiagnosticsNode.Type { One<Rest>.self }
    private static func zero<Rest: DiagnosticsNode>(_: Rest.Type) -> any DiagnosticsNode.Type { Zero<Rest>.self }
}

protocol DiagnosticsNode: Sendable { init() }
struct End: DiagnosticsNode {}
struct One<Rest: DiagnosticsNode>: DiagnosticsNode {}
struct Zero<Rest: DiagnosticsNode>: DiagnosticsNode {}

private func register<Service: DiagnosticsNode>(_: Service.Type, in container: Container) throws {
    try container.autoregister(Service.self, scope: .singleton) { Service() }
}

private func register<Service: DiagnosticsNode, First: DiagnosticsNode, Second: DiagnosticsNode>(
    _: Service.Type, dependingOn _: First.Type, and _: Second.Type, in container: Container
) throws {
    try container.autoregister(Service.self, scope: .singleton) { (_: First, _: Second) in Service() }
}
