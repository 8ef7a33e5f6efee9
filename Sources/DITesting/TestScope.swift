import DICore
import Testing

/// One test's test container and what the test said about it: strict mode, live services it allows, and
/// where to report failures. Bound as ``current`` while the test runs.
final class TestScope: Sendable {
    /// The test container, bound as `Container.current` for the test.
    let container: Container
    /// The test, as failures name it: `CheckoutTests/paysWithFake()`.
    let testName: String
    /// The Swift Testing test it belongs to, so that the traits of one test case share one scope.
    let testID: Test.ID?
    /// Where failures about the test point when nothing more precise is known.
    let location: Testing.SourceLocation?
    let reporter: FailureReporter
    private let state = Lock(State())

    private struct State {
        var isStrict = false
        var hasLiveCheck = false
        var allowed: Set<LiveService> = []
        var reported: Set<String> = []
    }

    @TaskLocal static var current: TestScope?

    init(
        base: Container,
        testName: String,
        testID: Test.ID? = nil,
        location: Testing.SourceLocation? = nil,
        reporter: FailureReporter = .current
    ) {
        self.testName = testName
        self.testID = testID
        self.location = location
        self.reporter = reporter
        container = Container.makeTestContainer(from: base, name: "test \(testName)") { service in
            reporter.record(
                "\(service) was resolved from the test container of \(testName) after that test ended: work "
                    + "started by the test (a Task, a callback) outlived it. Await that work before the test "
                    + "returns, or cancel it.",
                location
            )
        }
    }

    /// The scope for a test made by the testing library: named after the test (and its arguments).
    convenience init(base: Container, test: Test, reporter: FailureReporter = .current) {
        self.init(
            base: base,
            testName: test.id.nameComponents.joined(separator: "/"),
            testID: test.id,
            location: test.sourceLocation,
            reporter: reporter
        )
    }

    /// Ends the test: its container is closed, disposing its instances newest first.
    func end() {
        container.close()
    }

    /// Turns on strict mode: resolving a service of the base that the test neither overrode nor allowed
    /// records a failure.
    func makeStrict() {
        let addCheck = state.withLock { state in
            state.isStrict = true
            defer { state.hasLiveCheck = true }
            return !state.hasLiveCheck
        }
        if addCheck { container.addBehavior(LiveServiceCheck(scope: self)) }
    }

    func allow(_ services: some Sequence<LiveService>) {
        state.withLock { $0.allowed.formUnion(services) }
    }

    var isStrict: Bool { state.withLock { $0.isStrict } }

    /// Whether resolving `info` live must be reported: in strict mode, not allowed, and the first time only.
    func shouldReport(_ info: RegistrationInfo) -> Bool {
        state.withLock { state in
            state.isStrict && !state.allowed.contains { $0.allows(info) }
                && state.reported.insert(info.displayName).inserted
        }
    }

    /// Records `message` as a failure of this test.
    func fail(_ message: String, at location: Testing.SourceLocation? = nil) {
        reporter.record(message, location ?? self.location)
    }
}
