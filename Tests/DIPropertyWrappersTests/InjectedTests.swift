import DICore
import DIPropertyWrappers
import Testing

private final class Scheduler {
    @Injected(\.clock) var clock
    @LazyInjected(\.clock) var lazyClock
}

private final class Tracker {
    static let analyticsLine = #line + 1
    @LazyInjected(\.analytics) var analytics
}

/// Both wrappers in a `Sendable` struct.
private struct Tick: Sendable {
    @Injected(\.clock) var clock
    @LazyInjected(\.clock) var lazyClock
}

@Suite(.timeLimit(.minutes(1))) struct InjectedTests {
    @Test func eagerlyResolvesTheKeysDefault() throws {
        let app = Container(name: "app")
        let scheduler = withContainer(app) { Scheduler() }
        #expect(scheduler.clock.now == 1)
        #expect(scheduler.clock as AnyObject === (try app.resolve(\.clock)) as AnyObject)
    }

    @Test func aSubtreeOverrideWins() throws {
        let app = Container(name: "app")
        let checkout = app.child(name: "checkout")
        try checkout.register(\.clock) { _ in FixedClock() }
        #expect(withContainer(checkout) { Scheduler() }.clock.now == 42)
        #expect(withContainer(app) { Scheduler() }.clock.now == 1)
    }

    @Test func lazyVariantResolvesOnFirstReadFromTheContainerCapturedAtCreation() throws {
        let app = Container(name: "app")
        let checkout = app.child(name: "checkout")
        let scheduler = withContainer(checkout) { Scheduler() }
        #expect(!scheduler.$lazyClock.isResolved)
        try checkout.register(\.clock) { _ in FixedClock() }
        #expect(scheduler.lazyClock.now == 42)
        #expect(scheduler.$lazyClock.isResolved)
    }

    @Test func missingRequiredKeyReportsTheKeyAndTheFix() throws {
        let app = Container(name: "app")
        let error = try #require(throws: InjectionError.self) {
            try Injected<any Analytics>.resolve(\.analytics, from: app, fileID: "App/Tracker.swift", line: 4)
        }
        #expect(error.service == "\\.analytics")
        #expect(error.resolutionError?.code == .requiredKeyMissing)
        let text = error.description
        #expect(text.contains("@Injected at App/Tracker.swift:4 could not inject \\.analytics from app."))
        #expect(text.contains("try container.register(\\.analytics)"))

        let tracker = withContainer(app) { Tracker() }
        let lazyError = try #require(throws: InjectionError.self) { try tracker.$analytics.resolve() }
        #expect(lazyError.location.line == Tracker.analyticsLine)
        #expect(lazyError.wrapper == "@LazyInjected")

        try app.register(\.analytics) { _ in Telemetry() }
        #expect(tracker.analytics is Telemetry)
    }

    @Test func worksInSendableStructs() async throws {
        let app = Container(name: "app")
        let tick = withContainer(app) { Tick() }
        let now = await Task.detached { tick.clock.now + tick.lazyClock.now }.value
        #expect(now == 2)
    }
}
