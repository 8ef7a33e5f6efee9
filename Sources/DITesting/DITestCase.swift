import DICore
import XCTest

/// An `XCTestCase` whose every test method runs in its own test container, bound as `Container.current`.
///
/// The container is made from ``baseContainer`` when the method starts and closed (disposing its instances
/// newest first) when it ends. It covers `setUp`, the test body — synchronous or `async` — `tearDown` and
/// teardown blocks, so what one method registers is never seen by the next, and the app's singletons are
/// built anew for each method.
///
/// ```swift
/// final class LegacyTests: DITestCase {
///     override func setUpWithError() throws {
///         try Container.current.register(Clock.self) { _ in FixedClock() }
///     }
///
///     func testStampsReceipts() throws {
///         let receipts = try Container.current.resolve(ReceiptPrinter.self)   // an app singleton
///         XCTAssertEqual(receipts.print().date, FixedClock.now)
///     }
/// }
/// ```
open class DITestCase: XCTestCase {
    /// The container whose graph each test method's test container copies: `Container.current` when the
    /// method starts, unless a subclass overrides it.
    ///
    /// ```swift
    /// override var baseContainer: Container { AppContainer.live }
    /// ```
    open var baseContainer: Container { Container.current }

    /// Whether each test method's container is strict: resolving a service of the base graph that the
    /// method neither registered itself nor allowed with ``allowLive(_:name:)`` fails the test (with
    /// `XCTFail`), and still returns the live instance. `false` unless a subclass overrides it.
    ///
    /// ```swift
    /// final class PaymentTests: DITestCase {
    ///     override var isStrict: Bool { true }
    /// }
    /// ```
    open var isStrict: Bool { false }

    /// Lets the running test method resolve the base graph's registration of `type` under `name` live, in a
    /// strict test case; call it in `setUp` or in the method.
    ///
    /// ```swift
    /// override func setUp() {
    ///     super.setUp()
    ///     allowLive(Logger.self)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The service the method may use live.
    ///   - name: The registration name, `nil` for the unnamed registration.
    public func allowLive<Service>(_ type: Service.Type, name: String? = nil) {
        TestScope.current?.allow([LiveService(type, name: name)])
    }

    /// Runs the test method (with its set-up and tear-down) inside a new test container.
    ///
    /// ```swift
    /// override func invokeTest() {
    ///     // code here runs outside the test container
    ///     super.invokeTest()
    /// }
    /// ```
    open override func invokeTest() {
        let scope = TestScope(base: baseContainer, testName: name)
        defer { scope.end() }
        if isStrict { scope.makeStrict() }
        TestScope.$current.withValue(scope) {
            withContainer(scope.container) {
                super.invokeTest()
            }
        }
    }
}
