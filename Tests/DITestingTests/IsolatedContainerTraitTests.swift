import DICore
import DIScopes
import DITesting
import Testing

/// A test of the contract's call shapes: a suite isolated as a whole, a test configuring its container.
@Suite(.isolatedContainer) struct CheckoutTests {
    @Test(.container { try $0.register((any PaymentService).self) { _ in FakePayment() } })
    func paysWithFake() throws {
        try App.install()
        #expect(try Container.current.resolve((any PaymentService).self).pay(10))
    }

    @Test func paysLiveWithoutAnOverride() throws {
        try App.install()
        #expect(try !Container.current.resolve((any PaymentService).self).pay(10))
    }
}

@Suite(.timeLimit(.minutes(1))) struct IsolatedContainerTraitTests {
    /// Installs the app before a test's `.override`, so that what it replaces is there.
    static let installApp = IsolatedContainerTrait.container { _ in try App.install() }

    @Test(.isolatedContainer) func bindsATestContainerMadeFromTheCurrentOne() throws {
        #expect(Container.current !== Container.shared)
        #expect(Container.current.context == .test)
        #expect(Container.current.parent == nil)
    }

    @Test(installApp, .override((any Clock).self) { _ in FixedClock() })
    func overridesByType() throws {
        try App.install()
        #expect(try Container.current.resolve((any Clock).self).now == 42)
        #expect(try Container.shared.resolve((any Clock).self).now == 1_000)
    }

    @Test(.override(\.clock) { _ in FixedClock() })
    func overridesAKeyPath() throws {
        #expect(try Container.current.resolve(\.clock).now == 42)
    }

    /// The first trait stands for the app's named registration, which the override replaces.
    @Test(.container { try $0.register(Marker.self, name: "named") { _ in Marker(value: -2) } },
          .override(Marker.self, name: "named") { _ in Marker(value: 7) })
    func overridesANamedRegistration() throws {
        #expect(try Container.current.resolve(Marker.self, name: "named") == Marker(value: 7))
        #expect(!Container.shared.isRegistered(Marker.self, name: "named"))
    }

    /// The mocks of one parameterised test are made per case, never shared.
    @Test(installApp, .override((any Repository).self) { _ in SpyRepository() }, arguments: 0..<8)
    func overridesAreEvaluatedPerTestCase(value: Int) throws {
        let spy = try #require(Container.current.mock((any Repository).self, as: SpyRepository.self))
        spy.save("\(value)")
        #expect(spy.items == ["\(value)"])
    }

    @Test func disposesItsInstancesAtTheEnd() async throws {
        let log = Log()
        let container = try await Self.runIsolated {
            try Container.current.register(Disposed.self, scope: .singleton) { _ in Disposed(log: log) }
            _ = try Container.current.resolve(Disposed.self)
            #expect(log.entries.isEmpty)
        }
        #expect(log.entries == ["disposed"])
        #expect(container.isClosed)
    }

    /// Runs `body` in the scope of a trait, as the testing library would, and returns its container.
    static func runIsolated(
        _ trait: IsolatedContainerTrait = .isolatedContainer,
        _ body: @escaping @Sendable () throws -> Void
    ) async throws -> Container {
        let seen = Lock<Container?>(nil)
        let test = try #require(Test.current)
        // The running test has no trait of its own, so the trait makes a container rather than adding to one.
        try await withContainer(Container(name: "base")) {
            try await trait.provideScope(for: test, testCase: nil) {
                seen.withLock { $0 = Container.current }
                try body()
            }
        }
        return try #require(seen.withLock { $0 })
    }
}

/// Nested traits add up, the suite's first; the suite's `init()` runs inside the test container.
@Suite(.container { try $0.register(String.self, name: "layer") { _ in "suite" } })
struct NestedTraitTests {
    let containerAtInit: Container

    init() {
        containerAtInit = Container.current
    }

    @Test(.container { try $0.register(String.self, name: "layer") { _ in "test" } })
    func theTestsTraitWinsOverTheSuites() throws {
        #expect(try Container.current.resolve(String.self, name: "layer") == "test")
    }

    @Test func theSuitesTraitAppliesToEachTest() throws {
        #expect(try Container.current.resolve(String.self, name: "layer") == "suite")
    }

    @Test(.container { try $0.register(String.self, name: "other") { _ in "test" } })
    func oneContainerPerTestCase() throws {
        // Both layers configured the same container, which the suite's init saw.
        #expect(containerAtInit === Container.current)
        #expect(try Container.current.resolve(String.self, name: "layer") == "suite")
        #expect(try Container.current.resolve(String.self, name: "other") == "test")
    }
}

final class Disposed: Disposable, Sendable {
    let log: Log
    init(log: Log) { self.log = log }
    func dispose() { log.append("disposed") }
}
