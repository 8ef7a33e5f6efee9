import DICore
import DIDiagnostics
import DIScopes
import DITestSupport
import Testing

/// Random graphs checked against a small reference model: which dependencies are missing, and how many
/// separate loops (strongly connected components with a cycle) there are.
@Suite(.timeLimit(.minutes(1))) struct RandomGraphTests {
    @Test(arguments: 0..<20)
    func findingsMatchTheReferenceModel(round: Int) throws {
        let seed = UInt64.random(in: 1...UInt64.max)
        print("RandomGraphTests round \(round) seed \(seed)")
        var random = SplitMix64(state: seed)
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

    /// Random graphs without loops in which some services have only an `async` factory: DI-ASYNC names exactly
    /// the synchronous services with a plain, `Lazy` or `Provider` edge to one (once per such service; an
    /// `AsyncProvider` edge is the way out), and a service fails to resolve (also with `resolveAsync`) exactly
    /// when it is one of them or needs one of them through plain edges.
    @Test(arguments: 0..<20)
    func asyncOnlyDependenciesMatchTheRuntime(round: Int) async throws {
        let seed = UInt64.random(in: 1...UInt64.max)
        print("RandomGraphTests async round \(round) seed \(seed)")
        var random = SplitMix64(state: seed)
        let count = Int.random(in: 2...20, using: &random)
        let isAsync = (0..<count).map { _ in Int.random(in: 0..<4, using: &random) == 0 }
        // Edges point to lower indices only (no loops); most are plain, the others a relationship.
        var edges: [[(target: Int, edge: Edge)]] = []
        for index in 0..<count {
            let degree = isAsync[index] || index == 0 ? 0 : Int.random(in: 0...2, using: &random)
            edges.append((0..<degree).map { _ in
                let target = Int.random(in: 0..<index, using: &random)
                let isPlain = Int.random(in: 0..<2, using: &random) == 0
                return (target, isPlain ? .plain : Edge.allCases.randomElement(using: &random)!)
            })
        }

        let app = Container(name: "app")
        for index in 0..<count {
            if isAsync[index] {
                try registerAsync(node(index), in: app)
            } else {
                try register(node(index), edges[index].map { (node($0.target), $0.edge) }, in: app)
            }
        }
        let report = app.validate()

        // Reference: the holders of an edge that needs an async-only service synchronously, and what fails
        // through plain edges (a relationship builds nothing with its owner).
        let holders = Set((0..<count).filter { index in
            edges[index].contains { isAsync[$0.target] && $0.edge.needsSynchronously }
        })
        var fails = [Bool](repeating: false, count: count)
        for index in 0..<count {
            fails[index] = holders.contains(index) || edges[index].contains { $0.edge == .plain && fails[$0.target] }
        }

        let found = report.findings.filter { $0.id == .async }
        #expect(Set(found.map(\.service)) == Set(holders.map { "\(node($0))" }), "seed \(seed)\n\(report)")
        // One finding for each async-only service a holder needs, as DI-MISSING gives one per missing one.
        let pairs = (0..<count).reduce(0) { total, index in
            let needed = edges[index].filter { isAsync[$0.target] && $0.edge.needsSynchronously }
            return total + Set(needed.map(\.target)).count
        }
        #expect(found.count == pairs, "seed \(seed)")
        for index in 0..<count {
            let outcome: ResolutionError.Code?
            do {
                _ = try await app.resolveAsync(node(index))
                outcome = nil
            } catch let error as ResolutionError {
                outcome = error.code
            }
            #expect(outcome == (fails[index] ? .asyncResolutionRequired : nil), "seed \(seed), node \(index)")
        }
    }
}

extension RandomGraphTests {
    /// Random trees app → feature → screen, each service registered at one or two levels (a singleton or a
    /// transient), some also in a test container made from a random level: a service resolves from the test
    /// container exactly when a small model of the levels says it does (a singleton's dependencies from its
    /// registering level, with the test's own registrations first; a transient's from where it is asked), and
    /// `validate()` of the test container reports a missing dependency exactly when one of them fails.
    @Test(arguments: 0..<20)
    func testContainersBelowTheAppMatchTheModel(round: Int) throws {
        let seed = UInt64.random(in: 1...UInt64.max)
        print("RandomGraphTests levels round \(round) seed \(seed)")
        var random = SplitMix64(state: seed)
        let count = Int.random(in: 2...12, using: &random)
        let app = Container(name: "app")
        let feature = app.child(name: "feature")
        let levels = [app, feature, feature.child(name: "screen")]
        // Dependencies point to later nodes only: no loops.
        var dependencies: [[Int]] = []
        var registeredAt: [Set<Int>] = []
        var isSingleton: [Bool] = []
        var isOverridden: [Bool] = []
        for index in 0..<count {
            let later = (index + 1)..<count
            let degree = later.isEmpty ? 0 : Int.random(in: 0...2, using: &random)
            dependencies.append((0..<degree).map { _ in Int.random(in: later, using: &random) })
            var at: Set<Int> = [Int.random(in: 0..<3, using: &random)]
            if Bool.random(using: &random) { at.insert(Int.random(in: 0..<3, using: &random)) }
            registeredAt.append(at)
            isSingleton.append(Bool.random(using: &random))
            isOverridden.append(Int.random(in: 0..<5, using: &random) == 0)
        }
        for index in 0..<count {
            for level in registeredAt[index] {
                try register(node(index), dependencies[index].map(node),
                             scope: isSingleton[index] ? .singleton : .transient, in: levels[level])
            }
        }
        let base = Int.random(in: 0..<3, using: &random)
        let test = Container.makeTestContainer(from: levels[base], name: "test")
        defer { test.close() }
        for index in 0..<count where isOverridden[index] {
            try register(node(index), dependencies[index].map(node),
                         scope: isSingleton[index] ? .singleton : .transient, in: test)
        }

        // The model: whether `index` resolves when asked of the level `view` sees (the base: the test container).
        func resolves(_ index: Int, view: Int) -> Bool {
            let home: Int
            if isOverridden[index] {
                home = isSingleton[index] ? base : view
            } else {
                guard let level = (0...view).reversed().first(where: { registeredAt[index].contains($0) }) else {
                    return false
                }
                home = isSingleton[index] ? level : view
            }
            return dependencies[index].allSatisfy { resolves($0, view: home) }
        }

        var anyFails = false
        for index in 0..<count {
            let expected = resolves(index, view: base)
            let visible = isOverridden[index] || registeredAt[index].contains { $0 <= base }
            if visible && !expected { anyFails = true }
            #expect(Self.resolve(index, from: test) == expected, "seed \(seed), node \(index)")
        }
        let missing = test.validate().findings.contains { $0.id == .missing }
        #expect(missing == anyFails, "seed \(seed): \(test.validate())")
    }

    /// Random graphs of transient, singleton and `.matching("request")` services, registered in a random order,
    /// asked from a child tagged "request": a service resolves exactly when a small model says it does (a
    /// singleton is built in the app, where no container has the tag), and `validate()` of the child names as
    /// the service to change exactly the singletons that reach a `.matching` service through transients.
    @Test(arguments: 0..<20)
    func matchingServicesBelowSingletonsMatchTheModel(round: Int) throws {
        let seed = UInt64.random(in: 1...UInt64.max)
        print("RandomGraphTests matching round \(round) seed \(seed)")
        var random = SplitMix64(state: seed)
        let count = Int.random(in: 3...20, using: &random)
        enum Kind { case transient, singleton, matching }
        // Mostly transients, so that several singletons often share the transients on their way.
        let weighted: [Kind] = [.transient, .transient, .singleton, .singleton, .matching]
        let kinds = (0..<count).map { _ in weighted.randomElement(using: &random)! }
        // Dependencies point to later nodes only: no loops.
        let dependencies = (0..<count).map { index in
            let later = (index + 1)..<count
            return later.isEmpty ? [] : (0..<Int.random(in: 1...2, using: &random)).map { _ in
                Int.random(in: later, using: &random)
            }
        }
        let app = Container(name: "app")
        let request = app.child(name: "request", tags: ["request"])
        for index in (0..<count).shuffled(using: &random) {
            let scope: Scope = switch kinds[index] {
            case .transient: .transient
            case .singleton: .singleton
            case .matching: .matching("request")
            }
            try register(node(index), dependencies[index].map(node), scope: scope, in: app)
        }

        // The model: whether `index` resolves when asked from the request (`true`) or from the app.
        func resolves(_ index: Int, inRequest: Bool) -> Bool {
            let builtInRequest = switch kinds[index] {
            case .transient: inRequest
            case .singleton: false
            case .matching: inRequest
            }
            if kinds[index] == .matching && !inRequest { return false }
            return dependencies[index].allSatisfy { resolves($0, inRequest: builtInRequest) }
        }
        func reachesMatchingThroughTransients(_ index: Int) -> Bool {
            dependencies[index].contains { kinds[$0] == .matching
                || (kinds[$0] == .transient && reachesMatchingThroughTransients($0)) }
        }
        let keepers = Set((0..<count).filter { kinds[$0] == .singleton && reachesMatchingThroughTransients($0) })

        for index in 0..<count {
            #expect(Self.resolve(index, from: request) == resolves(index, inRequest: true),
                    "seed \(seed), node \(index)")
        }
        // The service each finding says to change: the last one on its path not built where it is asked.
        let report = request.validate()
        let advised = report.findings.filter { $0.id == .matching }.compactMap { finding -> String? in
            let holders = finding.path.dropLast()
            guard let keeper = holders.last(where: { $0.scope != "transient" }), keeper.scope == "singleton" else {
                return nil
            }
            #expect(finding.help.hasPrefix("\(keeper) needs "), "seed \(seed): \(finding)")
            return keeper.description
        }
        #expect(Set(advised) == Set(keepers.map { "\(node($0))" }), "seed \(seed)\n\(report)")
    }

    private static func resolve(_ index: Int, from container: Container) -> Bool {
        resolves(node(index), from: container)
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

private func registerAsync<S: RandomNode>(_: S.Type, in app: Container) throws {
    try app.registerAsync(S.self, scope: .singleton) { _ in S() }
}

/// How a random service asks for a dependency: a plain parameter, or a relationship to it.
private enum Edge: CaseIterable {
    case plain, lazy, provider, asyncProvider

    /// Whether a synchronous factory with this edge to an async-only service always fails: only an
    /// `AsyncProvider` can be awaited.
    var needsSynchronously: Bool { self != .asyncProvider }
}

/// Registers `service` depending on `deps`, each through its `Edge`.
private func register(
    _ service: any RandomNode.Type, _ deps: [(type: any RandomNode.Type, edge: Edge)], in app: Container
) throws {
    switch deps.count {
    case 0: try register0(service, in: app)
    case 1: try registerOne(service, deps[0].type, deps[0].edge, in: app)
    default: try registerTwo(service, deps[0].type, deps[0].edge, deps[1].type, deps[1].edge, in: app)
    }
}
private func registerOne<S: RandomNode, A: RandomNode>(_: S.Type, _: A.Type, _ edge: Edge, in app: Container) throws {
    switch edge {
    case .plain: try app.autoregister(S.self, scope: .singleton) { (_: A) in S() }
    case .lazy: try app.autoregister(S.self, scope: .singleton) { (_: Lazy<A>) in S() }
    case .provider: try app.autoregister(S.self, scope: .singleton) { (_: Provider<A>) in S() }
    case .asyncProvider: try app.autoregister(S.self, scope: .singleton) { (_: AsyncProvider<A>) in S() }
    }
}
private func registerTwo<S: RandomNode, A: RandomNode, B: RandomNode>(
    _: S.Type, _: A.Type, _ edgeA: Edge, _: B.Type, _ edgeB: Edge, in app: Container
) throws {
    func with<First>(_: First.Type) throws {
        switch edgeB {
        case .plain: try app.autoregister(S.self, scope: .singleton) { (_: First, _: B) in S() }
        case .lazy: try app.autoregister(S.self, scope: .singleton) { (_: First, _: Lazy<B>) in S() }
        case .provider: try app.autoregister(S.self, scope: .singleton) { (_: First, _: Provider<B>) in S() }
        case .asyncProvider:
            try app.autoregister(S.self, scope: .singleton) { (_: First, _: AsyncProvider<B>) in S() }
        }
    }
    switch edgeA {
    case .plain: try with(A.self)
    case .lazy: try with(Lazy<A>.self)
    case .provider: try with(Provider<A>.self)
    case .asyncProvider: try with(AsyncProvider<A>.self)
    }
}

private func register(
    _ service: any RandomNode.Type, _ deps: [any RandomNode.Type], scope: Scope = .singleton, in app: Container
) throws {
    switch deps.count {
    case 0: try register0(service, scope: scope, in: app)
    case 1: try register1(service, deps[0], scope: scope, in: app)
    default: try register2(service, deps[0], deps[1], scope: scope, in: app)
    }
}
private func register0<S: RandomNode>(_: S.Type, scope: Scope = .singleton, in app: Container) throws {
    try app.autoregister(S.self, scope: scope) { S() }
}
private func register1<S: RandomNode, A: RandomNode>(
    _: S.Type, _: A.Type, scope: Scope = .singleton, in app: Container
) throws {
    try app.autoregister(S.self, scope: scope) { (_: A) in S() }
}
private func register2<S: RandomNode, A: RandomNode, B: RandomNode>(
    _: S.Type, _: A.Type, _: B.Type, scope: Scope = .singleton, in app: Container
) throws {
    try app.autoregister(S.self, scope: scope) { (_: A, _: B) in S() }
}

/// A resolve of a random node through `Resolver`'s generic entry, for a type known only at run time.
private func resolves(_ type: any RandomNode.Type, from container: Container) -> Bool {
    func open<S: RandomNode>(_: S.Type) -> Bool { (try? container.resolve(S.self)) != nil }
    return open(type)
}
