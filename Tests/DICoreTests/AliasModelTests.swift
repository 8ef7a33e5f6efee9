import DICore
import DITestSupport
import Synchronization
import Testing

/// A seeded random walk over an app, its child, a test container made from the app and a child of that, in
/// which a singleton `Service` is registered (with or without an alias `any Named`), its alias type registered
/// on its own, and both resolved, checked step by step against a small model: which registration and which
/// container's instance each resolve hands out. An alias stands for its target's key in the container that
/// registered it (a test container resolves it as its own, with its overrides); registering the target again
/// moves the alias along; no instance is handed out once its registration was replaced, and at the end every
/// instance built is disposed exactly once.
@Suite(.timeLimit(.minutes(1))) struct AliasModelTests {
    protocol Named: Sendable {
        var generation: Int { get }
    }

    final class Service: Named, Disposable {
        let generation: Int
        let disposals = Atomic<Int>(0)
        init(_ generation: Int) { self.generation = generation }
        func dispose() { disposals.add(1, ordering: .relaxed) }
        var isDisposed: Bool { disposals.load(ordering: .relaxed) > 0 }
    }

    struct Plain: Named {
        let generation: Int
    }

    /// What is registered under the alias type in a container.
    enum AliasEntry: Equatable {
        case alias
        case plain(Int)
    }

    /// app 0, child 1 (of app), test 2 (a test container made from app), screen 3 (a child of test).
    static let parents: [Int?] = [nil, 0, nil, 2]
    static let bases: [Int?] = [nil, nil, 0, nil]

    struct Model {
        var service: [Int?] = [nil, nil, nil, nil]
        var named: [AliasEntry?] = [nil, nil, nil, nil]

        /// The containers a lookup from `index` reads, nearest first, each with the container that owns what
        /// is built from it (a test container owns what it resolves through its base).
        func sources(from index: Int) -> [(container: Int, owner: Int)] {
            var result: [(Int, Int)] = []
            var current: Int? = index
            while let container = current {
                result.append((container, container))
                if let base = bases[container] { result += sources(from: base).map { ($0.container, container) } }
                current = parents[container]
            }
            return result
        }

        /// The registration generation of `Service` seen from `index`, and the container holding its instance.
        func service(from index: Int) -> (generation: Int, holder: Int)? {
            for (container, owner) in sources(from: index) {
                if let generation = service[container] { return (generation, owner) }
            }
            return nil
        }

        /// What resolving `any Named` from `index` hands out: a singleton's (generation, holder), or a plain
        /// instance's generation.
        func named(from index: Int) -> (generation: Int, holder: Int?)? {
            for (container, owner) in sources(from: index) {
                switch named[container] {
                case nil: continue
                case .plain(let generation): return (generation, nil)
                case .alias:
                    // The alias resolves its target in the container that registered it; a test container
                    // resolves an alias of its base as its own.
                    return service(from: owner).map { ($0.generation, $0.holder) }
                }
            }
            return nil
        }
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5, UInt64.random(in: 6...UInt64.max)])
    func matchesTheModel(seed: UInt64) throws {
        var random = SplitMix64(state: seed)
        let app = Container(name: "app")
        let containers = [
            app, app.child(name: "child"), Container.makeTestContainer(from: app, name: "test"),
        ]
        let all = containers + [containers[2].child(name: "screen")]
        var model = Model()
        var generation = 0
        // Every instance handed out, by (generation, holder): one instance each, never one disposed.
        var seen: [String: Service] = [:]
        var built: [Service] = []
        var log: [String] = []

        for step in 0..<300 {
            let index = Int.random(in: 0..<all.count, using: &random)
            let container = all[index]
            switch Int.random(in: 0..<6, using: &random) {
            case 0:
                generation += 1
                let made = generation
                let handle = try container.register(Service.self, scope: .singleton) { _ in Service(made) }
                model.service[index] = made
                if Bool.random(using: &random) {
                    try handle.implements((any Named).self)
                    model.named[index] = .alias
                }
                let alias = model.named[index] == .alias ? " (aliased)" : ""
                log.append("\(step): register Service \(made) in c\(index)\(alias)")
            case 1:
                generation += 1
                let made = generation
                try container.register((any Named).self) { _ in Plain(generation: made) }
                model.named[index] = .plain(made)
                log.append("\(step): register Named \(made) in c\(index)")
            case 2, 3:
                let expected = model.service(from: index)
                let got = try? container.resolve(Service.self)
                log.append("\(step): c\(index) resolves Service")
                #expect(got?.generation == expected?.generation, "seed \(seed): \(log.suffix(12))")
                if let got, let expected {
                    check(got, expected.generation, expected.holder)
                }
            default:
                let expected = model.named(from: index)
                let got = try? container.resolve((any Named).self)
                log.append("\(step): c\(index) resolves Named")
                #expect(got?.generation == expected?.generation, "seed \(seed): \(log.suffix(12))")
                if let got = got as? Service, let expected, let holder = expected.holder {
                    check(got, expected.generation, holder)
                } else if let expected, expected.holder != nil {
                    Issue.record("seed \(seed): a plain Named, not the alias's Service: \(log.suffix(12))")
                }
            }
        }

        func check(_ instance: Service, _ generation: Int, _ holder: Int) {
            #expect(!instance.isDisposed, "seed \(seed): handed out disposed: \(log.suffix(12))")
            let key = "\(generation)@c\(holder)"
            if let earlier = seen[key] {
                #expect(earlier === instance, "seed \(seed): a second instance of \(key): \(log.suffix(12))")
            } else {
                seen[key] = instance
                built.append(instance)
            }
        }

        for container in all.reversed() { container.close() }
        let disposals = built.map { $0.disposals.load(ordering: .relaxed) }
        #expect(disposals.allSatisfy { $0 == 1 }, "seed \(seed): disposals \(disposals)")
    }
}
