import Benchmark
import BenchmarkFixtures
import DICore

// Relationship types (Lazy, Provider, AsyncProvider) against the direct resolves they stand for, in the same
// run: `Container.lazy-read*` against `Container.resolve-singleton` and the floors, a hand-written stored
// property (`Container.stored-property-read`, a `let`; `Container.stored-var-read`, a `var`, loaded on every
// read as a Lazy's value is), `Container.provider-*` against `Container.resolve-transient` /
// `Container.resolve-singleton`, `Container.async-provider-*` against `Container.resolve-async-*`.

/// Registers the relationship rows on `app`, whose services `registerServices(in:)` registered and whose
/// singletons are built.
func relationshipBenchmarks(app: Container) {
    // A Lazy read after the first: one atomic load, no allocation.
    //
    // The read rows and their floors hand blackHole the service `as AnyObject` (free for a class instance: the
    // same pointer). `blackHole` is generic, and given a `Logger` it needs Logger's type metadata, a call to
    // the metadata accessor: the optimizer hoists that call out of a loop without branches (the stored-var
    // floor) but not out of a loop with a throwing slow path (every Lazy row), which then paid an accessor
    // call per read that code reading a Lazy never makes (2.1 ns against the floor's 1.2 ns). AnyObject's
    // metadata is a constant, so the rows compare the reads themselves.
    let lazyLogger = try! app.resolve(Lazy<Logger>.self)
    blackHole(try! lazyLogger.value)
    Benchmark("Container.lazy-read", configuration: Scenario.micro) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try lazyLogger.value as AnyObject)
        }
    }

    // The same read lent to a closure: no retain and release of the service (a throwing getter cannot
    // lend its value, so `value` returns its own reference to the caller).
    Benchmark("Container.lazy-read-borrowed", configuration: Scenario.micro) { benchmark in
        for _ in benchmark.scaledIterations {
            try lazyLogger.withValue { blackHole($0 as AnyObject) }
        }
    }

    // The floor for both: reading a hand-written stored `let` of the same service.
    let holder = HandwrittenOwner(logger: try! app.resolve(Logger.self), cache: Cache(capacity: 1))
    Benchmark("Container.stored-property-read", configuration: Scenario.micro) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(holder.logger as AnyObject)
        }
    }

    // The like-for-like floor: a stored `let` never changes, so the optimizer hoists the read above out of
    // the loop and passes blackHole the field's address (no load at all per iteration), while a Lazy's
    // published value is an atomic word it must load every time. A stored `var` may change behind the opaque
    // blackHole call, so it is loaded on every iteration, as the Lazy's value is: one load of the property,
    // the value passed on without a retain (the Lazy rows retain nothing either).
    let mutableHolder = StoredLogger(try! app.resolve(Logger.self))
    Benchmark("Container.stored-var-read", configuration: Scenario.micro) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(mutableHolder.logger as AnyObject)
        }
    }

    // A Lazy of a transient keeps the one instance it built: the same cost.
    let lazyCache = try! app.resolve(Lazy<Cache>.self)
    blackHole(try! lazyCache.value)
    Benchmark("Container.lazy-read-transient", configuration: Scenario.micro) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try lazyCache.value as AnyObject)
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

    asyncProviderBenchmarks(app: app)
}

/// The owner of a stored `var`, read without exclusivity checks (as a `let` is), for `stored-var-read`.
final class StoredLogger {
    @exclusivity(unchecked) var logger: Logger

    init(_ logger: Logger) { self.logger = logger }
}

/// `AsyncProvider` calls against the `resolveAsync` they stand for, for an async singleton and transient.
func asyncProviderBenchmarks(app: Container) {
    try! app.registerAsync(Logger.self, name: "async", scope: .singleton) { _ in Logger(prefix: "async") }
    try! app.registerAsync(Cache.self, name: "async") { _ in Cache(capacity: 16) }
    let singletons = try! app.resolve(AsyncProvider<Logger>.self, name: "async")
    let transients = try! app.resolve(AsyncProvider<Cache>.self, name: "async")

    Benchmark("Container.resolve-async-singleton", configuration: Scenario.micro) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await app.resolveAsync(Logger.self, name: "async"))
        }
    }
    Benchmark("Container.async-provider-singleton", configuration: Scenario.micro) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await singletons())
        }
    }
    Benchmark("Container.resolve-async-transient", configuration: Scenario.micro) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await app.resolveAsync(Cache.self, name: "async"))
        }
    }
    Benchmark("Container.async-provider-transient", configuration: Scenario.micro) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await transients())
        }
    }
}
