import DICore
import DITestSupport
import DIScopes
import Foundation
import Synchronization
import Testing

/// Seeded random container trees and registrations, checked against a small model of the lifetime table
/// that knows nothing of the engine.
///
/// For every resolve the model predicts the error code, or which earlier instance comes back (or that it
/// is new) and which container's resolver built it (the `Origin` it carries); for every `close()` and
/// re-registration it predicts which instances are disposed. A disposed instance must never be handed out.
///
/// The scenario covers sync and async factories and resolves, every DIScopes lifetime except custom
/// storages, names, aliases (`.implements`), overrides in children, re-registrations, `reset`, `close()`, and
/// resolves from test containers made from any container of the tree (each one closed again at once). A
/// failure prints the seed and a shrunk scenario (the fewest operations that still fail). `DI_FUZZ_SEEDS=N`
/// runs N seeds (default 16) in batches of 200, each batch its own test case, as many at once as there are
/// cores; `DI_FUZZ_SEED=S` replays one seed; `DI_FUZZ_ALIASES=0` leaves aliases out, to look past alias
/// failures for other kinds.
///
/// What the model assumes beyond the table: an alias resolves its target key again, looked up from the
/// container the alias was registered in, and places the instance for the container that was asked; a
/// re-registered key's aliases follow the new registration; `close()` closes the container's descendants;
/// a `.matching(tag)` service whose nearest tagged container is above the registering container is refused
/// with `scopeUnavailable` (that container's resolver cannot see the registration); a test container treats
/// the registrations of its base and the base's ancestors as its own, nearest first (an alias's target too),
/// builds its own instance of each with its own resolver, carries their tags, and disposes what it holds when
/// it closes.
@Suite struct LifetimeModelTests {
    static let batchSize = 200

    static var seeds: [UInt64] {
        let environment = ProcessInfo.processInfo.environment
        if let seed = environment["DI_FUZZ_SEED"].flatMap({ UInt64($0) }) { return [seed] }
        let count = environment["DI_FUZZ_SEEDS"].flatMap { Int($0) } ?? 16
        return (0..<UInt64(max(count, 1))).map { 0xD1_0000 + $0 }
    }

    static var batches: [Batch] {
        stride(from: 0, to: seeds.count, by: batchSize).map {
            Batch(seeds: Array(seeds[$0..<min($0 + batchSize, seeds.count)]))
        }
    }

    struct Batch: Sendable, CustomTestStringConvertible {
        let seeds: [UInt64]
        var testDescription: String { "seeds \(seeds.first ?? 0)…\(seeds.last ?? 0) (\(seeds.count))" }
    }

    /// How many batches run at once: as many as there are cores.
    static let turns = Turnstile(ProcessInfo.processInfo.activeProcessorCount)

    /// A batch may wait for the others before its turn, so its time limit grows with the seeds to run: one
    /// minute up to 30,000 seeds (a seed takes about a millisecond), a minute more for every 30,000 after. Each
    /// seed has a watchdog of its own, which names a seed that hangs and goes on with the next.
    static var timeLimit: TimeLimitTrait.Duration { .minutes(1 + seeds.count / 30_000) }

    @Test(.timeLimit(timeLimit), arguments: batches)
    func randomGraphsBehaveAsTheLifetimeTableSays(_ batch: Batch) async {
        await Self.turns.pass { await Self.check(batch) }
    }

    static func check(_ batch: Batch) async {
        var reported = 0
        for seed in batch.seeds {
            let scenario = Scenario(seed: seed)
            guard let outcome = await finishing(within: .seconds(60), { await scenario.run() }) else {
                Issue.record("seed \(seed) (replay with DI_FUZZ_SEED=\(seed)) did not finish within 60 s: a hang")
                reported += 1
                if reported == 3 { break }
                continue
            }
            guard let mismatch = outcome else { continue }
            let (shrunk, minimal) = await scenario.shrunk(failingWith: mismatch)
            Issue.record(Comment(rawValue: """
                seed \(seed) (replay with DI_FUZZ_SEED=\(seed)): \(minimal.message)
                shrunk from \(scenario.operations.count) to \(shrunk.operations.count) operations:
                \(shrunk.summary(upTo: minimal.step))
                """))
            reported += 1
            if reported == 3 { break }
        }
        print("LifetimeModelTests: \(batch.seeds.count) seeds from \(batch.seeds.first ?? 0), \(reported) failing")
    }

    /// The model must see what the engine does: a scenario with a known answer.
    @Test func theModelPredictsAHandWrittenScenario() async {
        let scenario = Scenario(
            parents: [nil, 0, 1],
            tags: [[], ["session"], []],
            operations: [
                .register(container: 0, name: "a", lifetime: .singleton, aliases: ["x"], isAsync: false),
                .register(container: 0, name: "b", lifetime: .scoped, aliases: [], isAsync: true),
                .register(container: 0, name: "c", lifetime: .matchingSession, aliases: [], isAsync: false),
                .resolve(container: 2, target: .service("a"), isAsync: false),
                .resolve(container: 2, target: .alias("x"), isAsync: false),
                .resolve(container: 2, target: .service("b"), isAsync: true),
                .resolve(container: 1, target: .service("b"), isAsync: true),
                .resolve(container: 1, target: .service("b"), isAsync: false),
                .resolve(container: 2, target: .service("c"), isAsync: false),
                .resolve(container: 0, target: .service("c"), isAsync: false),
                .register(container: 1, name: "a", lifetime: .transient, aliases: [], isAsync: false),
                .resolve(container: 2, target: .service("a"), isAsync: false),
                .resolve(container: 2, target: .alias("x"), isAsync: false),
                .reset(container: 1, lifetime: .scoped),
                .resolve(container: 1, target: .service("b"), isAsync: false),
                .close(container: 1),
                .resolve(container: 2, target: .service("a"), isAsync: false),
                .resolve(container: 0, target: .alias("x"), isAsync: false),
            ]
        )
        #expect(await scenario.run() == nil)
    }
}

// MARK: - The scenario

enum Lifetime: String, CaseIterable, Sendable {
    case transient, singleton, scoped, graph, weak, cached, matchingSession, matchingRequest

    var scope: Scope {
        switch self {
        case .transient: .transient
        case .singleton: .singleton
        case .scoped: .scoped
        case .graph: .graph
        case .weak: .weak
        case .cached: .cached
        case .matchingSession: .matching("session")
        case .matchingRequest: .matching("request")
        }
    }

    var tag: String? {
        switch self {
        case .matchingSession: "session"
        case .matchingRequest: "request"
        default: nil
        }
    }

    /// Lifetimes whose instances the holding container disposes when it is closed or the registration is
    /// replaced.
    var disposesOnClose: Bool { [.singleton, .cached, .scoped, .matchingSession, .matchingRequest].contains(self) }
}

enum Target: Sendable, CustomStringConvertible {
    case service(String)
    case alias(String)

    var description: String {
        switch self {
        case .service(let name): "Service \"\(name)\""
        case .alias(let name): "Shape \"\(name)\" (alias)"
        }
    }
}

enum Operation: Sendable, CustomStringConvertible {
    case register(container: Int, name: String, lifetime: Lifetime, aliases: [String], isAsync: Bool)
    case resolve(container: Int, target: Target, isAsync: Bool)
    /// Resolves from a new, untagged child of the container, made just for this resolve.
    case resolveInNewChild(container: Int, target: Target, isAsync: Bool)
    /// Resolves from a new test container made from the container, then closes it.
    case resolveInTestContainer(base: Int, target: Target, isAsync: Bool)
    case reset(container: Int, lifetime: Lifetime)
    case close(container: Int)

    var description: String {
        switch self {
        case .register(let c, let name, let lifetime, let aliases, let isAsync):
            "c\(c).register\(isAsync ? "Async" : "")(Service \"\(name)\", .\(lifetime))"
                + aliases.map { ".implements(Shape, \"\($0)\")" }.joined()
        case .resolve(let c, let target, let isAsync): "c\(c).resolve\(isAsync ? "Async" : "")(\(target))"
        case .resolveInNewChild(let c, let target, let isAsync):
            "c\(c).child(name: \"late\").resolve\(isAsync ? "Async" : "")(\(target))"
        case .resolveInTestContainer(let c, let target, let isAsync):
            "test container of c\(c): resolve\(isAsync ? "Async" : "")(\(target)), close()"
        case .reset(let c, let lifetime): "c\(c).reset(.\(lifetime))"
        case .close(let c): "c\(c).close()"
        }
    }
}

protocol Shape: AnyObject, Sendable {}

/// The service: its serial tells instances apart, its origin says which container's resolver built it.
final class Service: Shape, Disposable, Sendable {
    let serial: Int
    let origin: String
    private let disposed = Atomic<Bool>(false)

    init(serial: Int, origin: String) {
        self.serial = serial
        self.origin = origin
    }

    func dispose() { disposed.store(true, ordering: .releasing) }
    var isDisposed: Bool { disposed.load(ordering: .acquiring) }
}

struct Mismatch: Equatable {
    let step: Int
    let message: String
}

struct Scenario {
    let parents: [Int?]
    let tags: [Set<String>]
    let operations: [Operation]

    static let names = ["a", "b", "c"]
    static let usesAliases = ProcessInfo.processInfo.environment["DI_FUZZ_ALIASES"] != "0"
    static let aliasNames = ["x", "y"]

    init(parents: [Int?], tags: [Set<String>], operations: [Operation]) {
        self.parents = parents
        self.tags = tags
        self.operations = operations
    }

    init(seed: UInt64) {
        var random = SplitMix64(state: seed)
        let count = Int.random(in: 2...6, using: &random)
        var parents: [Int?] = [nil]
        var tags: [Set<String>] = []
        for index in 0..<count {
            if index > 0 { parents.append(Int.random(in: 0..<index, using: &random)) }
            var own: Set<String> = []
            if Int.random(in: 0..<10, using: &random) < 3 { own.insert("session") }
            if Int.random(in: 0..<10, using: &random) < 2 { own.insert("request") }
            tags.append(own)
        }
        var operations: [Operation] = []
        for _ in 0..<Int.random(in: 30...80, using: &random) {
            let container = Int.random(in: 0..<count, using: &random)
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<30:
                let aliases = Self.aliasNames.filter { _ in Int.random(in: 0..<4, using: &random) == 0 && Self.usesAliases }
                operations.append(.register(
                    container: container,
                    name: Self.names.randomElement(using: &random)!,
                    lifetime: Lifetime.allCases.randomElement(using: &random)!,
                    aliases: aliases,
                    isAsync: Int.random(in: 0..<4, using: &random) == 0
                ))
            case 30..<85:
                let target: Target = Int.random(in: 0..<4, using: &random) == 0 && Self.usesAliases
                    ? .alias(Self.aliasNames.randomElement(using: &random)!)
                    : .service(Self.names.randomElement(using: &random)!)
                let isAsync = Int.random(in: 0..<10, using: &random) < 3
                switch Int.random(in: 0..<10, using: &random) {
                case 0: operations.append(.resolveInNewChild(container: container, target: target, isAsync: isAsync))
                case 1:
                    operations.append(.resolveInTestContainer(base: container, target: target, isAsync: isAsync))
                default:
                    operations.append(.resolve(container: container, target: target, isAsync: isAsync))
                }
            case 85..<97:
                operations.append(.reset(container: container, lifetime: Lifetime.allCases.randomElement(using: &random)!))
            default:
                operations.append(.close(container: container))
            }
        }
        self.init(parents: parents, tags: tags, operations: operations)
    }

    /// The tree, then the operations up to and including `step`.
    func summary(upTo step: Int) -> String {
        let tree = parents.indices.map { index in
            "c\(index)" + (parents[index].map { " child of c\($0)" } ?? " root")
                + (tags[index].isEmpty ? "" : " tags \(tags[index].sorted())")
        }
        let steps = operations.prefix(step + 1).enumerated().map { "  \($0.offset): \($0.element)" }
        return "  tree: " + tree.joined(separator: "; ") + "\n" + steps.joined(separator: "\n")
    }

    /// The same scenario with as few operations as still fail (greedy chunk removal, bounded).
    func shrunk(failingWith mismatch: Mismatch) async -> (Scenario, Mismatch) {
        var best = Scenario(parents: parents, tags: tags, operations: Array(operations.prefix(mismatch.step + 1)))
        var bestMismatch = mismatch
        var chunk = max(best.operations.count / 2, 1)
        var replays = 0
        while chunk >= 1, replays < 400 {
            var start = 0
            var removedAny = false
            while start < best.operations.count, replays < 400 {
                var candidate = best.operations
                candidate.removeSubrange(start..<min(start + chunk, candidate.count))
                let trial = Scenario(parents: parents, tags: tags, operations: candidate)
                replays += 1
                if let failure = await trial.run() {
                    best = Scenario(parents: parents, tags: tags, operations: Array(candidate.prefix(failure.step + 1)))
                    bestMismatch = failure
                    removedAny = true
                } else {
                    start += chunk
                }
            }
            if !removedAny { chunk /= 2 }
        }
        return (best, bestMismatch)
    }

    /// Runs the scenario on real containers and on the model; the first difference, if any.
    func run() async -> Mismatch? {
        var run = ModelRun(scenario: self)
        for (step, operation) in operations.enumerated() {
            if let message = await run.apply(operation) { return Mismatch(step: step, message: message) }
        }
        return nil
    }
}

// MARK: - The model, and the comparison

/// Where a kept instance lives: one per registration and holding container.
struct Slot: Hashable {
    let registration: Int
    let holder: Int
}

struct ModelRegistration {
    let id: Int
    let lifetime: Lifetime
    let container: Int
    let isAsync: Bool
}

/// What the model expects of one resolve.
enum Prediction {
    /// Any of these codes (a sync resolve of an async `.matching` service may fail for either reason).
    case failure(Set<ResolutionError.Code>)
    /// `slot == nil`: a new instance that nobody keeps.
    case instance(slot: Slot?, origin: Int)
}

struct ModelRun {
    let scenario: Scenario
    let containers: [Container]
    let serials = Counter()

    // The model's state: nothing below reads the engine.
    var closed: Set<Int> = []
    var registrations: [Int: [String: ModelRegistration]] = [:]
    var registrationsByID: [Int: ModelRegistration] = [:]
    var aliases: [Int: [String: String]] = [:]
    var nextRegistration = 0

    // What was observed, to compare identities with.
    var kept: [Slot: Service] = [:]
    var seenSerials: Set<Int> = []
    /// Every instance handed out, kept alive so that `.weak` instances behave as held.
    var handedOut: [Service] = []

    init(scenario: Scenario) {
        self.scenario = scenario
        var containers: [Container] = []
        for index in scenario.parents.indices {
            let container = scenario.parents[index].map {
                containers[$0].child(name: "c\(index)", tags: scenario.tags[index])
            } ?? Container(name: "c\(index)", tags: scenario.tags[index])
            let name = "c\(index)"
            try! container.register(Origin.self) { _ in Origin(container: name) }
            containers.append(container)
        }
        self.containers = containers
    }

    func ancestry(of index: Int) -> [Int] {
        var result: [Int] = []
        var current: Int? = index
        while let next = current {
            result.append(next)
            current = scenario.parents[next]
        }
        return result
    }

    func isClosed(_ index: Int) -> Bool { ancestry(of: index).contains { closed.contains($0) } }

    func isInSubtree(_ index: Int, of root: Int) -> Bool { ancestry(of: index).contains(root) }

    func predict(_ target: Target, from asking: Int, isAsync: Bool) -> Prediction {
        let prediction = place(target, from: asking)
        guard !isAsync, let registration = prediction.registration, registration.isAsync else { return prediction.result }
        if case .failure(let codes) = prediction.result { return .failure(codes.union([.asyncResolutionRequired])) }
        return .failure([.asyncResolutionRequired])
    }

    /// The registration a resolve of `target` from `asking` finds. An alias's target is looked up from the
    /// container the alias was registered in.
    func registration(of target: Target, from asking: Int) -> ModelRegistration? {
        switch target {
        case .service(let name):
            return ancestry(of: asking).lazy.compactMap { self.registrations[$0]?[name] }.first
        case .alias(let name):
            guard let aliasOwner = ancestry(of: asking).first(where: { aliases[$0]?[name] != nil }),
                  let targetName = aliases[aliasOwner]?[name]
            else { return nil }
            return ancestry(of: aliasOwner).lazy.compactMap { self.registrations[$0]?[targetName] }.first
        }
    }

    func place(_ target: Target, from asking: Int) -> (result: Prediction, registration: ModelRegistration?) {
        if isClosed(asking) { return (.failure([.containerClosed]), nil) }
        guard let registration = registration(of: target, from: asking) else {
            return (.failure([.notRegistered]), nil)
        }
        switch registration.lifetime {
        case .transient, .graph:
            return (.instance(slot: nil, origin: asking), registration)
        case .singleton, .cached, .weak:
            return (.instance(slot: Slot(registration: registration.id, holder: registration.container),
                              origin: registration.container), registration)
        case .scoped:
            return (.instance(slot: Slot(registration: registration.id, holder: asking), origin: asking), registration)
        case .matchingSession, .matchingRequest:
            guard let tagged = ancestry(of: asking).first(where: { scenario.tags[$0].contains(registration.lifetime.tag!) })
            else { return (.failure([.scopeUnavailable]), registration) }
            // The tagged container builds with its own resolver, which cannot see a registration made
            // below it: refused rather than built from the wrong place.
            if tagged != registration.container && isInSubtree(registration.container, of: tagged) {
                return (.failure([.scopeUnavailable]), registration)
            }
            return (.instance(slot: Slot(registration: registration.id, holder: tagged), origin: tagged), registration)
        }
    }

    /// What a new test container made from `base` does with a resolve of `target`: what the base does, but
    /// every instance that a container would keep is the test container's own (`slot` names the test container
    /// as `-1`); its dependencies come from where the base's would (the test container registers no `Origin`).
    func predictInTestContainer(_ target: Target, base: Int, isAsync: Bool) -> Prediction {
        let prediction = predict(target, from: base, isAsync: isAsync)
        guard case .instance(let slot?, let origin) = prediction else { return prediction }
        return .instance(slot: Slot(registration: slot.registration, holder: -1), origin: origin)
    }

    /// Applies `operation` to the engine and the model; a description of the first difference, if any.
    mutating func apply(_ operation: Operation) async -> String? {
        switch operation {
        case .resolveInTestContainer(let base, let target, let isAsync):
            let test = Container.makeTestContainer(from: containers[base], name: "test")
            let prediction = predictInTestContainer(target, base: base, isAsync: isAsync)
            // Nothing of the test container's is kept past this step: its instance is checked as a new one.
            let unkept: Prediction
            if case .instance(_, let origin) = prediction { unkept = .instance(slot: nil, origin: origin) } else {
                unkept = prediction
            }
            if let mismatch = await resolve(target, in: test, request: "\(operation)", prediction: unkept,
                                            isAsync: isAsync) {
                return mismatch
            }
            let built = handedOut.last
            test.close()
            guard case .instance(let slot?, _) = prediction, let built, !isClosed(base),
                  let lifetime = registrationsByID[slot.registration]?.lifetime
            else { return nil }
            if lifetime.disposesOnClose != built.isDisposed {
                return "\(operation): closing the test container \(built.isDisposed ? "disposed" : "did not dispose") "
                    + "its .\(lifetime) instance #\(built.serial)"
            }
            return nil
        case .resolve(let asking, let target, let isAsync):
            return await resolve(target, in: containers[asking], request: "\(operation)",
                                 prediction: predict(target, from: asking, isAsync: isAsync), isAsync: isAsync)
        case .resolveInNewChild(let parent, let target, let isAsync):
            // The child registers nothing and has no tag: it resolves as its parent does, except that a
            // `.scoped` instance is its own, new one (its `Origin` comes from the parent).
            var prediction = predict(target, from: parent, isAsync: isAsync)
            if case .instance(let slot?, let origin) = prediction, slot.holder == parent,
               registrationsByID[slot.registration]?.lifetime == .scoped
            {
                prediction = .instance(slot: nil, origin: origin)
            }
            let child = containers[parent].child(name: "late")
            return await resolve(target, in: child, request: "\(operation)", prediction: prediction, isAsync: isAsync)
        case .register(let index, let name, let lifetime, let aliasNames, let isAsync):
            return register(name, lifetime: lifetime, aliases: aliasNames, isAsync: isAsync, in: index)
        case .reset(let index, let lifetime):
            let dropped = containers[index].reset(lifetime.scope)
            let slots = kept.keys.filter { slot in
                guard slot.holder == index, let registration = registrationsByID[slot.registration] else { return false }
                return registration.lifetime == lifetime && lifetime != .singleton
            }
            for slot in slots { kept[slot] = nil }
            if isClosed(index) { return nil }
            if dropped != slots.count {
                return "reset(.\(lifetime)) of c\(index) dropped \(dropped) instances; the model expected \(slots.count)"
            }
            return nil
        case .close(let index):
            containers[index].close()
            closed.insert(index)
            for (slot, service) in kept {
                guard let registration = registrationsByID[slot.registration], registration.lifetime.disposesOnClose
                else { continue }
                let inside = isInSubtree(slot.holder, of: index)
                if inside && !service.isDisposed {
                    return "c\(index).close() did not dispose the \(registration.lifetime) instance #\(service.serial) "
                        + "held by c\(slot.holder)"
                }
                if !inside && service.isDisposed {
                    return "c\(index).close() disposed the \(registration.lifetime) instance #\(service.serial) held by "
                        + "c\(slot.holder), outside the closed subtree"
                }
            }
            for slot in kept.keys where isInSubtree(slot.holder, of: index) { kept[slot] = nil }
            return nil
        }
    }

    private mutating func register(
        _ name: String, lifetime: Lifetime, aliases aliasNames: [String], isAsync: Bool, in index: Int
    ) -> String? {
        let serials = serials
        let container = containers[index]
        var thrown: (any Error)?
        do {
            let handle = isAsync
                ? try container.registerAsync(Service.self, name: name, scope: lifetime.scope) { r in
                    await Task.yield()
                    return Service(serial: serials.increment(), origin: try r.resolve(Origin.self).container)
                }
                : try container.register(Service.self, name: name, scope: lifetime.scope) { r in
                    Service(serial: serials.increment(), origin: try r.resolve(Origin.self).container)
                }
            for alias in aliasNames { try handle.implements((any Shape).self, name: alias) }
        } catch {
            thrown = error
        }
        if isClosed(index) {
            guard let error = thrown as? RegistrationError, error.code == .containerClosed else {
                return "registering into closed c\(index) gave \(thrown.map { "\($0)" } ?? "no error"), "
                    + "not containerClosed"
            }
            return nil
        }
        if let thrown { return "registering Service \"\(name)\" (.\(lifetime)) in c\(index) threw \(thrown)" }

        if let old = registrations[index]?[name] {
            for (slot, service) in kept where slot.registration == old.id {
                if [.singleton, .cached].contains(old.lifetime) && !service.isDisposed {
                    return "re-registering Service \"\(name)\" in c\(index) did not dispose the replaced "
                        + "\(old.lifetime) instance #\(service.serial)"
                }
                kept[slot] = nil
            }
        }
        let registration = ModelRegistration(id: nextRegistration, lifetime: lifetime, container: index, isAsync: isAsync)
        nextRegistration += 1
        registrations[index, default: [:]][name] = registration
        registrationsByID[registration.id] = registration
        for alias in aliasNames { aliases[index, default: [:]][alias] = name }
        return nil
    }

    private mutating func resolve(_ target: Target, in container: Container, request: String,
                                  prediction: Prediction, isAsync: Bool) async -> String? {
        let result: Result<Service, any Error>
        do {
            switch (target, isAsync) {
            case (.service(let name), false):
                result = .success(try container.resolve(Service.self, name: name))
            case (.service(let name), true):
                result = .success(try await container.resolveAsync(Service.self, name: name))
            case (.alias(let name), _):
                let shape = isAsync
                    ? try await container.resolveAsync((any Shape).self, name: name)
                    : try container.resolve((any Shape).self, name: name)
                guard let service = shape as? Service else { return "\(request) gave a \(type(of: shape))" }
                result = .success(service)
            }
        } catch {
            result = .failure(error)
        }
        switch (prediction, result) {
        case (.failure(let codes), .failure(let error)):
            guard let error = error as? ResolutionError, codes.contains(error.code) else {
                return "\(request) threw \(error); the model expected \(codes.map(\.name).sorted())"
            }
            return nil
        case (.failure(let codes), .success(let service)):
            return "\(request) returned instance #\(service.serial) from \(service.origin); the model expected "
                + "\(codes.map(\.name).sorted())"
        case (.instance, .failure(let error)):
            return "\(request) threw \(error); the model expected an instance"
        case (.instance(let slot, let origin), .success(let service)):
            handedOut.append(service)
            if service.isDisposed { return "\(request) handed out instance #\(service.serial), which is disposed" }
            if service.origin != "c\(origin)" {
                return "\(request) returned an instance built by \(service.origin)'s resolver; the model expected c\(origin)"
            }
            if let slot, let earlier = kept[slot] {
                if earlier !== service {
                    return "\(request) returned instance #\(service.serial); the model expected the kept #\(earlier.serial)"
                }
                return nil
            }
            if seenSerials.contains(service.serial) {
                return "\(request) returned the earlier instance #\(service.serial); the model expected a new one"
            }
            seenSerials.insert(service.serial)
            if let slot { kept[slot] = service }
            return nil
        }
    }
}
