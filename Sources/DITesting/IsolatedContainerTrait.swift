import DICore
import Testing

/// Gives each test case its own test container, bound as `Container.current`, and configures it.
///
/// A test container is a private copy of the graph of `Container.current` at the start of the test case:
/// it resolves everything that graph can, builds its **own** instance of every service that keeps
/// instances (the app's singletons too), applies the test's overrides to everything it resolves — the
/// dependencies of the app's singletons included — and changes nothing outside the test. It is closed when
/// the test case ends, disposing its instances newest first. Test cases run in parallel without seeing each
/// other's overrides, and each argument of a parameterised test gets a container of its own.
///
/// ```swift
/// @Suite(.isolatedContainer) struct CheckoutTests {
///     @Test(.container { try $0.register(PaymentService.self) { _ in FakePayment() } })
///     func paysWithFake() throws {
///         let checkout = try Container.current.resolve(Checkout.self)   // an app singleton, built for this test
///         #expect(try checkout.pay(10) == .accepted)
///     }
///
///     @Test(.override(Clock.self) { _ in FixedClock(now: 0) })
///     func stampsReceipts() throws { … }
/// }
/// ```
///
/// Traits add up: a suite's trait applies to each of its tests (and nested suites), and the traits of one
/// test case share one test container, configured outermost first (the suite's, then the test's), so a
/// test's override wins over its suite's. The suite's `init()` runs inside the test container too.
///
/// Strict mode (`isolatedContainer(strict:)`) records a test failure for every service of the base graph
/// the test resolves without overriding it or allowing it with `allowLive(_:name:)`.
public struct IsolatedContainerTrait: TestTrait, SuiteTrait, TestScoping {
    var strict = false
    var allowed: [LiveService] = []
    var configurations: [@Sendable (Container) async throws -> Void] = []

    /// Always `true`: a suite's trait gives each of its tests (and those of nested suites) a test container.
    public var isRecursive: Bool { true }

    /// Runs one test case inside a test container, or configures the one an outer trait made for it.
    ///
    /// The testing library calls this; you do not.
    ///
    /// - Parameters:
    ///   - test: The test that runs.
    ///   - testCase: The test case (one argument of a parameterised test).
    ///   - function: Runs the test case.
    /// - Throws: What configuring the container or the test throws.
    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable @concurrent () async throws -> Void
    ) async throws {
        if let scope = TestScope.current, scope.testID == test.id {
            // An outer trait of this very test case made the container: add to it.
            try await configure(scope)
            try await function()
            return
        }
        let scope = TestScope(base: Container.current, test: test)
        defer { scope.end() }
        try await TestScope.$current.withValue(scope) {
            try await Container.$current.withValue(scope.container) {
                try await configure(scope)
                try await function()
            }
        }
    }

    private func configure(_ scope: TestScope) async throws {
        if strict { scope.makeStrict() }
        scope.allow(allowed)
        for configuration in configurations { try await configuration(scope.container) }
    }
}

extension Trait where Self == IsolatedContainerTrait {
    /// Each test case gets its own test container, bound as `Container.current`.
    ///
    /// ```swift
    /// @Suite(.isolatedContainer) struct CartTests { … }
    /// @Test(.isolatedContainer) func addsItems() throws { … }
    /// ```
    public static var isolatedContainer: Self { IsolatedContainerTrait() }

    /// Each test case gets its own test container; with `strict`, resolving a service of the base graph that
    /// the test neither overrode nor allowed records a test failure.
    ///
    /// The failure names the service, where it was registered, the test and the resolution path; the live
    /// instance is still returned so that the test runs on and shows every such service. Each service is
    /// reported once per test case. Allow the ones the test may use with `allowLive(_:name:)`.
    ///
    /// ```swift
    /// @Suite(.isolatedContainer(strict: true), .allowLive(Logger.self))
    /// struct PaymentTests { … }
    /// ```
    ///
    /// - Parameter strict: Whether services of the base graph must be overridden or allowed.
    /// - Returns: The trait.
    public static func isolatedContainer(strict: Bool) -> Self {
        IsolatedContainerTrait(strict: strict)
    }

    /// Isolates each test case and configures its test container: register fakes, install mocks.
    ///
    /// The closure runs for each test case, on its own container, before the test (and before the suite's
    /// `init()`), so a reference-type fake is never shared by two test cases.
    ///
    /// ```swift
    /// @Test(.container { try $0.register(PaymentService.self) { _ in FakePayment() } })
    /// func paysWithFake() throws { … }
    /// ```
    ///
    /// - Parameter configure: Receives the test container.
    /// - Returns: The trait.
    public static func container(_ configure: @escaping @Sendable (Container) async throws -> Void) -> Self {
        IsolatedContainerTrait(configurations: [configure])
    }

    /// Isolates each test case and registers `factory` for `type` under `name` in its test container, as a
    /// singleton of that container: every resolve in the test case, and every service of the app graph built
    /// in it, gets the same instance, and the next test case gets a new one.
    ///
    /// ```swift
    /// @Test(.override(Clock.self) { _ in FixedClock(now: 0) })
    /// func stampsReceipts() throws { … }
    /// ```
    ///
    /// Override the key the app registers: when nothing the test container resolves from registers `type`
    /// under `name`, the override replaces nothing — the app's services never get it — and the test records a
    /// warning that names the registration probably meant (`any Clock`, where `SystemClock` was overridden). An
    /// override takes no runtime arguments, so it cannot replace a registration that takes some: the warning
    /// then gives the registration to make in ``container(_:)`` instead. A service the app provides through a
    /// keypath-registry key is replaced by overriding the key (`.override(\.clock) { … }`), which the warning
    /// names when the type was overridden.
    ///
    /// - Parameters:
    ///   - type: The service to replace.
    ///   - name: The registration name, `nil` for the unnamed registration.
    ///   - factory: Builds the replacement; it may resolve other services from the test container.
    ///   - fileID: Where the trait was written, printed in diagnostics; leave the default.
    ///   - filePath: Where the trait was written; leave the default.
    ///   - line: Where the trait was written; leave the default.
    ///   - column: Where the trait was written; leave the default.
    /// - Returns: The trait.
    public static func override<Service: Sendable>(
        _ type: Service.Type,
        name: String? = nil,
        _ factory: @escaping @Sendable (any Resolver) throws -> Service,
        fileID: String = #fileID,
        filePath: String = #filePath,
        line: Int = #line,
        column: Int = #column
    ) -> Self {
        let location = Testing.SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        return IsolatedContainerTrait(configurations: [
            { container in
                let warning = OverrideCheck.warning(type, name: name, in: container)
                try container.register(
                    type, name: name, scope: .singleton, fileID: fileID, line: line, factory: factory
                )
                if let warning { FailureReporter.current.warn(warning, location) }
            }
        ])
    }

    /// Isolates each test case and registers `factory` for a key of the keypath registry in its test
    /// container, as a singleton of that container.
    ///
    /// ```swift
    /// @Test(.override(\.clock) { _ in FixedClock(now: 0) })
    /// func stampsReceipts() throws { … }
    /// ```
    ///
    /// - Parameters:
    ///   - key: The key path of the key: `\.clock`.
    ///   - factory: Builds the replacement; it may resolve other services from the test container.
    ///   - fileID: Where the trait was written, printed in diagnostics; leave the default.
    ///   - line: Where the trait was written, printed in diagnostics; leave the default.
    /// - Returns: The trait.
    public static func override<Service: Sendable>(
        _ key: ServiceKeyPath<Service>,
        _ factory: @escaping @Sendable (any Resolver) throws -> Service,
        fileID: String = #fileID,
        line: Int = #line
    ) -> Self {
        IsolatedContainerTrait(configurations: [
            { container in
                try container.register(key, scope: .singleton, fileID: fileID, line: line, factory: factory)
            }
        ])
    }

    /// Isolates each test case and lets a strict test resolve the base graph's registration of `type` under
    /// `name` (by type and name) without a failure.
    ///
    /// ```swift
    /// @Test(.isolatedContainer(strict: true), .allowLive(Logger.self))
    /// func logs() throws { … }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The service the test may use live.
    ///   - name: The registration name, `nil` for the unnamed registration.
    /// - Returns: The trait.
    public static func allowLive<Service>(_ type: Service.Type, name: String? = nil) -> Self {
        IsolatedContainerTrait(allowed: [LiveService(type, name: name)])
    }

    /// Isolates each test case and lets a strict test resolve the base graph's registration of a key of the
    /// keypath registry (or the key's default) without a failure.
    ///
    /// ```swift
    /// @Test(.isolatedContainer(strict: true), .allowLive(\.clock))
    /// func schedules() throws { … }
    /// ```
    ///
    /// - Parameter key: The key path of the key: `\.clock`.
    /// - Returns: The trait.
    public static func allowLive<Service>(_ key: ServiceKeyPath<Service>) -> Self {
        IsolatedContainerTrait(allowed: [LiveService(key)])
    }
}
