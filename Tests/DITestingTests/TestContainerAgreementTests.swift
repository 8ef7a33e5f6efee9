import DICore
import DIDiagnostics
import DIScopes
import DITestSupport
import DITesting
import Testing

/// The agreement of `ValidationAgreementTests`, for a test container: made from a random container of a random
/// graph (registered with `autoregister`), given a few overrides of its own (any key, any lifetime and
/// parameters), its `validate()` reports an error exactly when asking it for some service it sees, and using that,
/// fails. A failure prints the graph, the test container's overrides and its seed, which `DI_FUZZ_SEED=S`
/// replays.
@Suite(.timeLimit(.minutes(1))) struct TestContainerAgreementTests {
    @Test(arguments: 0..<200)
    func aTestContainersValidationAgreesWithItsResolution(round: Int) throws {
        let seed = RandomGraph.seed
        var random = SplitMix64(state: seed)
        // Closure factories are left out: what building in copies observes in a test container's views is not
        // checked here (one disagreement in about 2,000 graphs with them).
        let graph = RandomGraph(using: &random)
        let containers = try graph.make()
        let level = Int.random(in: 0...2, using: &random)
        // Its own registrations: a service drawn as the graph draws them, at the base's level.
        let drawn = RandomGraph(using: &random)
        var own: [Int: RandomGraph.Service] = [:]
        for index in graph.services.indices where Int.random(in: 0..<3, using: &random) == 0 {
            guard var service = drawn.services[index] ?? drawn.overrides[index] else { continue }
            service.level = level
            service.aliased = false
            own[index] = service
        }
        try withTestContainer(from: containers[level]) { test in
            for (index, service) in own.sorted(by: { $0.key < $1.key }) {
                try RandomGraph.register(index, service, in: test)
            }
            let failures = graph.failures(asking: test, seenAt: level, aliasTarget: { own[$0] }) { index in
                own[index] ?? graph.seen(index, at: level)
            }
            let report = test.validate()
            let setting = "test container from \(containers[level].name), with its own:\n"
                + own.sorted { $0.key < $1.key }.map { RandomGraph.describe($1, as: $0) }.joined(separator: "\n")
            #expect(
                report.hasErrors == !failures.isEmpty,
                "\(graph.disagreement(round: round, seed: seed, setting: setting, failures: failures, report: report))"
            )
        }
    }
}

/// An alias builds nothing: it hands a request on to the registration it stands for, and the diagnostics place
/// that registration for the container asked — as resolution does — not by the lifetime the alias copied when it
/// was declared.
@Suite struct AliasPlacementTests {
    protocol Screen: Sendable {}
    final class Checkout: Screen {}

    /// A test container made from a request container overrides, as `.matching("request")`, the target of an alias
    /// the app declared (as `.weak`): the alias resolves the override, held by the test container, which carries
    /// the request's tag. `validate()` reported the alias's need of it as DI-MATCHING, placed at the app's level.
    @Test func anAliasOfATestContainersOverrideIsPlacedForTheTestContainer() throws {
        let app = Container(name: "app")
        try app.register(Checkout.self, scope: .weak) { _ in Checkout() }.implements((any Screen).self, name: "main")
        let request = app.child(name: "request", tags: ["request"])
        try withTestContainer(from: request) { test in
            try test.register(Checkout.self, scope: .matching("request")) { _ in Checkout() }
            _ = try test.resolve((any Screen).self, name: "main")
            let report = test.validate()
            #expect(!report.hasErrors, "\(report)")
        }
    }

    /// A `.matching` registration below its tagged container is reported once, not once more for its alias.
    @Test func anAliasOfARegistrationBelowItsTagIsNotReportedAgain() throws {
        let app = Container(name: "app")
        let feature = app.child(name: "request", tags: ["request"]).child(name: "feature")
        try feature.register(Checkout.self, scope: .matching("request")) { _ in Checkout() }
            .implements((any Screen).self, name: "main")
        #expect(throws: ResolutionError.self) { try feature.resolve((any Screen).self, name: "main") }
        let matching = app.validate().findings.filter { $0.id == .matching }
        #expect(matching.map(\.service) == ["Checkout"], "\(matching)")
    }
}
