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
              Repository  singleton  built  asked in checkout, registered in app
                Database  singleton  built  in app
                  any Logger  singleton  built  in app
                Cache  singleton  reused  in app
            ViewModel  transient  built  in checkout
              Repository  singleton  reused  asked in checkout, registered in app
            """)
    }

    @Test func exportsChromeTraceEvents() throws {
        let (app, checkout) = try Graphs.healthy()
        defer { withExtendedLifetime(checkout) {} }
        let trace = try app.trace { _ = try app.resolve(Repository.self) }
        let data = Data(trace.chromeTraceJSON().utf8)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let events = try #require(object["traceEvents"] as? [[String: Any]])
        #expect(events.map { $0["name"] as? String } == ["Repository", "Database", "any Logger", "Cache"])
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

    @Test func aTreeLeavesTheSlowPathWhenTheTraceEnds() throws {
        let (app, checkout) = try Graphs.healthy()
        #expect(!checkout.takesSlowPath)
        let trace = try checkout.trace {
            #expect(app.takesSlowPath && checkout.takesSlowPath)
            _ = try checkout.resolve(ViewModel.self)
        }
        #expect(!trace.events.isEmpty)
        #expect(!app.takesSlowPath && !checkout.takesSlowPath)
    }

    @Test func aTraceSeesOnlyItsOwnTree() throws {
        let (app, checkout) = try Graphs.healthy()
        let (other, otherChild) = try Graphs.healthy()
        defer { withExtendedLifetime((checkout, otherChild)) {} }
        let trace = try app.trace {
            _ = try other.resolve(Repository.self)
            _ = try app.resolve(Cache.self)
        }
        #expect(trace.events.map(\.service) == ["Cache"])
    }

    @Test(.timeLimit(.minutes(1)))
    func tracesAndResolvesOnManyThreadsAtOnce() async throws {
        let checkout = try Graphs.healthy().checkout   // keeps its parent, app, alive
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    if task.isMultiple(of: 2) {
                        let trace = try checkout.trace { _ = try checkout.resolve(ViewModel.self) }
                        return trace.events.count
                    }
                    for _ in 0..<200 { _ = try checkout.resolve(ViewModel.self) }
                    return 0
                }
            }
            var counts: [Int] = []
            for try await count in group { counts.append(count) }
            return counts
        }
        // Each trace saw at least its own hops (ViewModel, Repository).
        #expect(counts.filter { $0 > 0 }.count == 4)
        #expect(counts.filter { $0 > 0 }.allSatisfy { $0 >= 2 })
        #expect(!checkout.takesSlowPath)
    }
}

/// A trace of a test container made from a container below the app: the app singleton's dependencies are
/// resolved at the app's level of the test container, and the trace records them there.
@Suite struct TestContainerTraceTests {
    @Test func recordsTheAppLevelOfATestContainer() throws {
        let (_, checkout) = try Graphs.healthy()
        let test = Container.makeTestContainer(from: checkout, name: "test")
        defer { test.close() }
        let trace = try test.trace { _ = try test.resolve(ViewModel.self) }
        // Repository is an app singleton: it gets the app's Cache, as it does from checkout, not checkout's.
        #expect(trace.log(includingDurations: false) == """
            ViewModel  transient  built  asked in test, registered in checkout
              Repository  singleton  built  asked in test, registered in app
                Database  singleton  built  asked in test as app, registered in app
                  any Logger  singleton  built  asked in test as app, registered in app
                Cache  singleton  built  asked in test as app, registered in app
            """)
    }
}
