import DICore
import DITesting
import Testing

/// The proof that test cases running in parallel cannot see each other's overrides or instances.
///
/// Each case overrides the same key (`Marker`) in `Container.current` with its own value, lets the other
/// cases run, and resolves the app singleton `Greeter`, registered in `Container.shared` and depending on
/// `Marker`. Without `.isolatedContainer` every case would register into `Container.shared`, the one
/// `Greeter` would be built once with whichever marker was there, and nearly every case would fail.
@Suite(.isolatedContainer) struct ParallelIsolationTests {
    static let cases = 0..<64

    @Test(.timeLimit(.minutes(1)), arguments: cases)
    func eachCaseSeesOnlyItsOwnOverride(value: Int) async throws {
        try App.install()
        try Container.current.register(Marker.self) { _ in Marker(value: value) }
        // Give the other cases time to register their own markers before this one resolves.
        for _ in 0..<5 { await Task.yield() }
        try await Task.sleep(for: .milliseconds(value % 7))
        let greeter = try Container.current.resolve(Greeter.self)
        #expect(greeter.marker == Marker(value: value))
        await Task.yield()
        #expect(try Container.current.resolve(Greeter.self) === greeter)
        #expect(try Container.current.resolve(Marker.self) == Marker(value: value))
    }

    @Test(.timeLimit(.minutes(1)), arguments: cases)
    func eachCaseBuildsItsOwnAppSingletonAndTheBaseKeepsItsOwn(value: Int) async throws {
        try App.install()
        let live = try Container.shared.resolve(Greeter.self)
        try await Task.sleep(for: .milliseconds(value % 5))
        let own = try Container.current.resolve(Greeter.self)
        #expect(own !== live)
        #expect(own.builtBy == Container.current.name)
        #expect(own.builtBy != "shared")
        #expect(own.marker == Marker(value: -1))
        // The base's instance is untouched: the same object, built by the base with the live marker.
        #expect(try Container.shared.resolve(Greeter.self) === live)
        #expect(live.builtBy == "shared")
        #expect(live.marker == Marker(value: -1))
        #expect(try Container.shared.resolve(Marker.self) == Marker(value: -1))
    }
}
