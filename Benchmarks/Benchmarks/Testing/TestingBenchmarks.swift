import Benchmark
import BenchmarkFixtures
import DICore
import DITesting

// DITesting: what a test pays for its own copy of the app's graph. Making a test container copies no
// registration, so the cost must not grow with the app (target: ≤ 20 µs over 1,000 registrations).

let benchmarks: @Sendable () -> Void = {
    for count in [10, 1_000] {
        let app = Container(name: "app")
        for name in Scenario.serviceNames(count) {
            try! app.register(Logger.self, name: name, scope: .singleton) { _ in Logger() }
        }
        // The app's singletons are built, as they are in a running app; the test must not reuse them.
        for name in Scenario.serviceNames(count) { blackHole(try! app.resolve(Logger.self, name: name)) }

        // Make the test container, bind it as Container.current, close it: the whole per-test cost.
        Benchmark("Testing.make-test-container-\(Scenario.label(count))", configuration: Scenario.micro) { benchmark in
            for _ in benchmark.scaledIterations {
                withTestContainer(from: app) { blackHole($0) }
            }
        }
    }

    // The first resolve of an app singleton in a test: looked up in the base, built for the test, disposed.
    let app = Container(name: "app")
    try! app.register(Logger.self, scope: .singleton) { _ in Logger() }
    Benchmark("Testing.resolve-app-singleton-in-test", configuration: Scenario.micro) { benchmark in
        for _ in benchmark.scaledIterations {
            withTestContainer(from: app) { blackHole(try! $0.resolve(Logger.self)) }
        }
    }
}
