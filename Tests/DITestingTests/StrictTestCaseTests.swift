@testable import DITesting
import DICore
import XCTest

/// XCTest strict mode: each method's failures go to a capturing reporter, which `invokeTest` checks once
/// the method (and its test container) is over.
final class StrictTestCaseTests: DITestCase {
    private let reports = Log()

    override var isStrict: Bool { true }

    override func invokeTest() {
        FailureReporter.$injected.withValue(.capturing(reports.append)) {
            super.invokeTest()
        }
        if name.contains("testResolvingALiveServiceIsReported") {
            XCTAssertEqual(reports.entries.count, 1)
            XCTAssertTrue(reports.entries.first?.contains("live any Clock") == true, "\(reports.entries)")
            XCTAssertTrue(reports.entries.first?.contains("testResolvingALiveServiceIsReported") == true)
        } else {
            XCTAssertEqual(reports.entries, [])
        }
    }

    func testResolvingALiveServiceIsReported() throws {
        try App.install()
        XCTAssertEqual(try Container.current.resolve((any Clock).self).now, 1_000)
        XCTAssertEqual(try Container.current.resolve((any Clock).self).now, 1_000)   // reported once
    }

    func testAnAllowedServiceIsNotReported() throws {
        try App.install()
        allowLive((any Clock).self)
        XCTAssertEqual(try Container.current.resolve((any Clock).self).now, 1_000)
    }

    func testAServiceTheMethodRegisteredIsNotLive() throws {
        try App.install()
        try Container.current.register((any Clock).self) { _ in FixedClock() }
        XCTAssertEqual(try Container.current.resolve((any Clock).self).now, 42)
    }
}
