import DICore
import DIDiagnostics
import DITestSupport
import Testing

/// Random trees of containers and test containers, some of them closed, against a small reference model of
/// what each container resolves: every key from every container succeeds, is refused as closed, or is not
/// registered, as the model says; and the diagnostics agree with the resolution — `validate()` reports
/// DI-CLOSED exactly where a close refuses lookups, and `explain(_:)` names a provider where a resolve
/// succeeds and the close where it is refused.
@Suite struct ClosedTreeModelTests {
    /// A container of the model: its parent (own tree) or the base it was made from (a test container).
    struct Node {
        let parent: Int?
        let base: Int?
        /// The keys registered in it.
        var keys: Set<Int>
    }

    /// What a resolve of a key from a container does.
    enum Outcome: Equatable, CustomStringConvertible {
        case resolves, closed, missing
        var description: String {
            switch self {
            case .resolves: "resolves"
            case .closed: "containerClosed"
            case .missing: "notRegistered"
            }
        }
    }

    struct Model {
        var nodes: [Node] = []
        var explicitlyClosed: Set<Int> = []

        /// Closed itself, or with an ancestor of its own tree (a test container is not closed with its base).
        func isClosed(_ index: Int) -> Bool {
            var current: Int? = index
            while let node = current {
                if explicitlyClosed.contains(node) { return true }
                current = nodes[node].parent
            }
            return false
        }

        /// Whether a close refuses lookups from `index`: its own, an ancestor's, or one on a base chain.
        func isClosedOnItsPath(_ index: Int) -> Bool {
            var current: Int? = index
            while let node = current {
                if isClosed(node) { return true }
                current = nodes[node].parent ?? nodes[node].base
            }
            return false
        }

        func outcome(of key: Int, from index: Int) -> Outcome {
            if isClosed(index) { return .closed }
            return lookup(key, from: index) ?? (isClosedOnItsPath(index) ? .closed : .missing)
        }

        /// Walks the own tree up and, at a test container, its base chain; a closed container on the base chain
        /// ends the walk (it resolves nothing, not even what its open ancestors register).
        private func lookup(_ key: Int, from index: Int, inBase: Bool = false) -> Outcome? {
            var current: Int? = index
            while let node = current {
                if inBase && isClosed(node) { return .closed }
                if nodes[node].keys.contains(key) { return .resolves }
                if let base = nodes[node].base, let found = lookup(key, from: base, inBase: true) { return found }
                current = nodes[node].parent
            }
            return nil
        }
    }

    final class K0: Sendable {}
    final class K1: Sendable {}
    final class K2: Sendable {}
    final class K3: Sendable {}
    static let keyCount = 4

    static func register(_ key: Int, in container: Container) throws {
        switch key {
        case 0: try container.register(K0.self) { _ in K0() }
        case 1: try container.register(K1.self) { _ in K1() }
        case 2: try container.register(K2.self) { _ in K2() }
        default: try container.register(K3.self) { _ in K3() }
        }
    }

    static func resolve(_ key: Int, from container: Container) -> Outcome {
        do {
            switch key {
            case 0: _ = try container.resolve(K0.self)
            case 1: _ = try container.resolve(K1.self)
            case 2: _ = try container.resolve(K2.self)
            default: _ = try container.resolve(K3.self)
            }
            return .resolves
        } catch let error as ResolutionError where error.code == .containerClosed {
            return .closed
        } catch {
            return .missing
        }
    }

    static func explain(_ key: Int, from container: Container) -> Explanation {
        switch key {
        case 0: container.explain(K0.self)
        case 1: container.explain(K1.self)
        case 2: container.explain(K2.self)
        default: container.explain(K3.self)
        }
    }

    @Test(arguments: 0..<40)
    func resolutionAndDiagnosticsMatchTheModel(round: Int) throws {
        let seed = UInt64.random(in: 1...UInt64.max)
        var random = SplitMix64(state: seed)
        var model = Model()
        var containers: [Container] = []
        var problems: [String] = []
        /// Makes a container: the first a root; each later one a child of an earlier one, or, one time in four,
        /// a test container made from one. Registers a random few keys in it: refused as closed exactly where
        /// the model says it is closed (a child made after its parent closed).
        func makeContainer() throws {
            let index = containers.count
            let anchor = index == 0 ? nil : Int.random(in: 0..<index, using: &random)
            let isTest = anchor != nil && Int.random(in: 0..<4, using: &random) == 0
            let container: Container
            switch (anchor, isTest) {
            case (nil, _): container = Container(name: "c0")
            case (let anchor?, true):
                container = Container.makeTestContainer(from: containers[anchor], name: "c\(index)")
            case (let anchor?, false): container = containers[anchor].child(name: "c\(index)")
            }
            containers.append(container)
            model.nodes.append(Node(parent: isTest ? nil : anchor, base: isTest ? anchor : nil, keys: []))
            for key in 0..<Self.keyCount where Int.random(in: 0..<3, using: &random) == 0 {
                do {
                    try Self.register(key, in: container)
                    model.nodes[index].keys.insert(key)
                    if model.isClosed(index) { problems.append("c\(index) took K\(key) while closed") }
                } catch let error as RegistrationError where error.code == .containerClosed {
                    if !model.isClosed(index) { problems.append("c\(index) refused K\(key) while open") }
                }
            }
        }
        for _ in 0..<Int.random(in: 2...9, using: &random) { try makeContainer() }
        for _ in 0..<Int.random(in: 0...2, using: &random) {
            let closed = Int.random(in: 0..<containers.count, using: &random)
            containers[closed].close()
            model.explicitlyClosed.insert(closed)
        }
        // Made after the closes: a child of a closed container is closed from the start, a test container
        // made from one is open.
        for _ in 0..<Int.random(in: 0...3, using: &random) { try makeContainer() }
        let shape = model.nodes.enumerated().map { index, node in
            "c\(index): parent \(node.parent.map { "c\($0)" } ?? "-") base \(node.base.map { "c\($0)" } ?? "-") "
                + "keys \(node.keys.sorted())"
        }.joined(separator: "; ") + "; closed \(model.explicitlyClosed.sorted())"
        let context = "seed \(seed): \(shape)"
        #expect(problems.isEmpty, "\(problems), \(context)")

        for (index, container) in containers.enumerated() {
            let closedOnPath = model.isClosedOnItsPath(index)
            let report = container.validate()
            #expect(report.findings.contains { $0.id == .closed } == closedOnPath, "c\(index) DI-CLOSED, \(context)")
            for key in 0..<Self.keyCount {
                let expected = model.outcome(of: key, from: index)
                let got = Self.resolve(key, from: container)
                #expect(got == expected, "K\(key) from c\(index), \(context)")
                let explanation = Self.explain(key, from: container)
                switch expected {
                case .resolves:
                    #expect(explanation.provider != nil && explanation.closed == nil, "explain K\(key) c\(index)")
                case .closed:
                    #expect(explanation.provider == nil && explanation.closed != nil, "explain K\(key) c\(index)")
                case .missing:
                    #expect(explanation.provider == nil && explanation.closed == nil, "explain K\(key) c\(index)")
                }
            }
        }
    }
}
