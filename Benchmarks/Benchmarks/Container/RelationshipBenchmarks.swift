import Benchmark
import BenchmarkFixtures
import DICore

// Relationship types (Lazy, Provider) against the direct resolves they stand for, in the same run:
// `Container.lazy-read` against `Container.resolve-singleton`, `Container.provider-*` against
// `Container.resolve-transient` / `Container.resolve-singleton`.

/// Registers the relationship rows on `app`, whose services `registerServices(in:)` registered and whose
/// singletons are built.
func relationshipBenchmarks(app: Container) {
    // A Lazy read after the first: one atomic load, no allocation.
    let lazyLogger = try! app.resolve(Lazy<Logger>.self)
    blackHole(try! lazyLogger.value)
    Benchmark("Container.lazy-read", configuration: Scenario.micro) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try lazyLogger.value)
        }
    }

    // A Lazy of a transient keeps the one instance it built: the same cost.
    let lazyCache = try! app.resolve(Lazy<Cache>.self)
    blackHole(try! lazyCache.value)
    Benchmark("Container.lazy-read-transient", configuration: Scenario.micro) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try lazyCache.value)
        }
    }

    // Making a Lazy (what injecting one costs) and reading it once.
    Benchmark("Container.lazy-make-and-first-read", configuration: Scenario.micro) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try app.resolve(Lazy<Logger>.self).value)
        }
    }

    let singletons = try! app.resolve(Provider<Logger>.self)
    Benchmark("Container.provider-singleton", configuration: Scenario.micro) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try singletons())
        }
    }

    let transients = try! app.resolve(Provider<Cache>.self)
    Benchmark("Container.provider-transient", configuration: Scenario.micro) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try transients())
        }
    }

    try! app.register(Database.self, name: "assisted") { (r: any Resolver, label: String) in
        _ = label
        return Database(logger: try r.resolve(Logger.self))
    }
    let assisted = try! app.resolve(Provider<Database, String>.self, name: "assisted")
    Benchmark("Container.provider-assisted", configuration: Scenario.micro) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try assisted("label"))
        }
    }
    Benchmark("Container.resolve-arguments", configuration: Scenario.micro) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try app.resolve(Database.self, name: "assisted", argument: "label"))
        }
    }
}
