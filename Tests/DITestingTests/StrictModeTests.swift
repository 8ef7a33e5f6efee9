import DICore
@testable import DITesting
import Testing

/// The app is installed before any trait of a test runs, so that what `.override` replaces is there.
@Suite(.isolatedContainer(strict: true), .container { _ in try App.install() }) struct StrictModeTests {
    @Test func resolvingALiveServiceRecordsAFailureAndStillReturnsIt() throws {
        try App.install()
        try withKnownIssue {
            let now = try Container.current.resolve((any Clock).self).now
            #expect(now == 1_000)
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("live any Clock") && text.contains("StrictModeTests")
                && text.contains(".override((any Clock).self) { … }") && text.contains(".allowLive((any Clock).self)")
        }
    }

    @Test func theFailureNamesThePath() throws {
        try App.install()
        try Container.current.register(Marker.self) { _ in Marker(value: 1) }
        try withKnownIssue {
            _ = try Container.current.resolve(Greeter.self)
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("Greeter")
        }
    }

    @Test(.override((any Clock).self) { _ in FixedClock() })
    func anOverriddenServiceIsNotLive() throws {
        #expect(try Container.current.resolve((any Clock).self).now == 42)
    }

    @Test(.allowLive((any Clock).self))
    func anAllowedServiceIsNotReported() throws {
        try App.install()
        #expect(try Container.current.resolve((any Clock).self).now == 1_000)
    }

    @Test(.allowLive(\.clock))
    func anAllowedKeyPathIsNotReported() throws {
        _ = try Container.shared.resolve(\.clock)
        #expect(try Container.current.resolve(\.clock).now == 1_000)
    }

    @Test func aKeyPathIsReportedWithItsAllowance() throws {
        _ = try Container.shared.resolve(\.clock)   // the default is installed in the base, as an app would
        try withKnownIssue {
            _ = try Container.current.resolve(\.clock)
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains(".allowLive(\\.clock)")
        }
    }

    @Test(.allowLive(Greeter.self), .override(Marker.self) { _ in Marker(value: 3) })
    func anAllowedAppSingletonGetsTheOverride() throws {
        try App.install()
        #expect(try Container.current.resolve(Greeter.self).marker == Marker(value: 3))
    }
}

@Suite(.isolatedContainer) struct LenientModeTests {
    @Test func resolvingALiveServiceIsFineWithoutStrictMode() throws {
        try App.install()
        #expect(try Container.current.resolve((any Clock).self).now == 1_000)
    }
}

/// Strict mode in a test container made from a feature container below the app: the app singleton is built as
/// the app builds it (its dependencies from the app's level), and strict mode still sees every live service on
/// the way, also when it is turned on after the test container built something of the app's level.
@Suite struct StrictModeBelowTheAppTests {
    private func makeFeature() throws -> Container {
        let app = Container(name: "app")
        try app.register(Marker.self) { _ in Marker(value: 1) }
        try app.register(Greeter.self, scope: .singleton) { r in Greeter(marker: try r.resolve(), builtBy: "app") }
        try app.register((any Clock).self, scope: .singleton) { r in
            _ = try r.resolve(Marker.self)
            return SystemClock()
        }
        let feature = app.child(name: "feature")
        try feature.register(Marker.self) { _ in Marker(value: 2) }
        return feature
    }

    @Test(arguments: [false, true])
    func reportsTheDependenciesOfAnAppSingleton(strictAfterAFirstResolve: Bool) throws {
        let reports = Log()
        let scope = TestScope(base: try makeFeature(), testName: "strict", reporter: .capturing(reports.append))
        defer { scope.end() }
        if strictAfterAFirstResolve {
            _ = try scope.container.resolve((any Clock).self)
        }
        scope.makeStrict()
        let greeter = try scope.container.resolve(Greeter.self)
        #expect(greeter.marker == Marker(value: 1))
        #expect(reports.entries.contains { $0.contains("resolved the live Greeter") })
        #expect(reports.entries.contains { $0.contains("live Marker") && $0.contains("Greeter → Marker") })
    }
}
