import DICore
import DITesting
import XCTest

/// XCTest: every method in its own test container. Each method checks that nothing another method
/// registered is visible, then registers it itself, so whichever runs second proves the isolation.
final class DITestCaseTests: DITestCase {
    /// What the teardown block of this method saw; `tearDown()`, which XCTest runs after the blocks, checks it.
    private let teardownLog = Log()

    override func setUpWithError() throws {
        try super.setUpWithError()
        XCTAssertFalse(Container.current.isRegistered(String.self, name: "setUp"))
        try Container.current.register(String.self, name: "setUp") { _ in "from setUp" }
    }

    func testRegistersWhatTheNextMethodDoesNotSee() throws {
        XCTAssertFalse(Container.current.isRegistered(String.self, name: "method"))
        try Container.current.register(String.self, name: "method") { _ in "first" }
        XCTAssertEqual(try Container.current.resolve(String.self, name: "setUp"), "from setUp")
        XCTAssertEqual(Container.current.context, .test)
    }

    func testDoesNotSeeWhatTheOtherMethodRegistered() throws {
        XCTAssertFalse(Container.current.isRegistered(String.self, name: "method"))
        try Container.current.register(String.self, name: "method") { _ in "second" }
        XCTAssertFalse(Container.shared.isRegistered(String.self, name: "method"))
    }

    func testAsyncMethodsRunInTheTestContainer() async throws {
        XCTAssertFalse(Container.current.isRegistered(String.self, name: "method"))
        try Container.current.register(String.self, name: "method") { _ in "async" }
        try await Task.sleep(for: .milliseconds(1))
        XCTAssertEqual(try Container.current.resolve(String.self, name: "method"), "async")
        XCTAssertEqual(try Container.current.resolve(String.self, name: "setUp"), "from setUp")
    }

    func testTeardownBlocksRunInTheTestContainer() throws {
        let container = Container.current
        try container.register(String.self, name: "method") { _ in "teardown" }
        let log = teardownLog
        addTeardownBlock {
            log.append(Container.current === container ? "block in the test container" : "block elsewhere")
            XCTAssertTrue(Container.current === container)
            XCTAssertFalse(container.isClosed)
            XCTAssertEqual(try? Container.current.resolve(String.self, name: "method"), "teardown")
        }
    }

    func testAppSingletonsAreBuiltPerMethod() throws {
        try App.install()
        try Container.current.register(Marker.self) { _ in Marker(value: 9) }
        let greeter = try Container.current.resolve(Greeter.self)
        XCTAssertEqual(greeter.marker, Marker(value: 9))
        XCTAssertFalse(try Container.shared.resolve(Greeter.self) === greeter)
    }

    override func tearDown() {
        XCTAssertEqual(try? Container.current.resolve(String.self, name: "setUp"), "from setUp")
        if name.contains("testTeardownBlocksRunInTheTestContainer") {
            XCTAssertEqual(teardownLog.entries, ["block in the test container"])
        }
        super.tearDown()
    }
}
