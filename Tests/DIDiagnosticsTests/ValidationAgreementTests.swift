import DICore
import DIDiagnostics
import DIScopes
import DITestSupport
import Testing

/// Random graphs of every synchronous relationship kind (plain, `Lazy`, `Provider`, `Optional`, `All`, and a
/// relationship to a relationship), seven lifetimes (two tags), aliases, overrides in child containers and three
/// levels of containers, checked against the container: `validate()` reports an error exactly when some service,
/// resolved from some container and then used — its `Lazy` read, its `Provider` called, its collection read, and
/// so on down — fails. A disagreement prints the graph, what failed and the findings, with its seed:
/// `DI_FUZZ_SEED=S` replays it (in every round).
///
/// With closures, half the services are registered by closures that resolve their parameters, whose edges only a
/// build shows: checked against `validate(instantiating: true)`.
@Suite(.timeLimit(.minutes(1))) struct ValidationAgreementTests {
    @Test(arguments: [false, true], 0..<200)
    func validateReportsAnErrorExactlyWhenResolvingAndUsingFails(withClosures: Bool, round: Int) throws {
        let seed = RandomGraph.seed
        var random = SplitMix64(state: seed)
        let graph = RandomGraph(withClosures: withClosures, using: &random)
        let containers = try graph.make()
        let failures = graph.failures(in: containers)
        let report = containers[0].validate(instantiating: withClosures)
        #expect(
            report.hasErrors == !failures.isEmpty,
            "\(graph.disagreement(round: round, seed: seed, failures: failures, report: report))"
        )
    }
}
