import DICore
import DIDiagnostics
import Foundation
import Testing

@Suite struct ResolutionTraceTests {
    @Test func recordsOneEventPerHopIndentedByDepth() throws {
        let (app, checkout) = try Graphs.healthy()
        _ = try app.resolve(Cache.self)   // built before the trace: reused inside it
        let trace = try checkout.trace {
            _ = try checkout.resolve(ViewModel.self)
            _ = try checkout.resolve(ViewModel.self)
        }
        #expect(trace.log(includingDurations: false) == """
            ViewModel  transient  built  in checkout
              Repository  singleton  built  in checkout (registered in app)
                Database  singleton  built  in app
                  Logger  singleton  built  in app
                Cache  singleton  reused  in app
            ViewModel  transient  built  in checkout
              Repository  singleton  reused  in checkout (registered in app)
            """)
    }

    @Test func exportsChromeTraceEvents() throws {
        let (app, checkout) = try Graphs.healthy()
        defer { withExtendedLifetime(checkout) {} }
        let trace = try app.trace { _ = try app.resolve(Repository.self) }
        let data = Data(trace.chromeTraceJSON().utf8)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let events = try #require(object["traceEvents"] as? [[String: Any]])
        #expect(events.map { $0["name"] as? String } == ["Repository", "Database", "Logger", "Cache"])
        #expect(events.allSatisfy { $0["ph"] as? String == "X" && $0["dur"] is NSNumber })
    }

    @Test func tracingStopsWhenTheBodyReturns() throws {
        let (app, checkout) = try Graphs.healthy()
        defer { withExtendedLifetime(checkout) {} }
        let trace = try app.trace { _ = try app.resolve(Cache.self) }
        _ = try app.resolve(Repository.self)
        #expect(trace.events.map(\.service) == ["Cache"])
        // A second trace sees only its own resolves.
        let second = try app.trace { _ = try app.resolve(Repository.self) }
        #expect(second.events.map(\.built) == [false])
    }
}
