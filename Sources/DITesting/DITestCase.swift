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
        withContainer(scope.container) {
            super.invokeTest()
        }
    }
}
