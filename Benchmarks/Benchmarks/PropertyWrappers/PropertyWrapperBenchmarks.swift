import Benchmark
import BenchmarkFixtures
import DICore
import DIPropertyWrappers

// DIToolkit's property wrappers (DIPropertyWrappers). The owners resolve from the ambient
// container, bound with `withContainer`; the contenders are swift-dependencies' `@Dependency`
// (DependenciesBenchmarks) and a hand-written owner whose dependencies are passed in
// (HandwrittenBenchmarks).

/// Resolves both dependencies when it is created: a singleton and a new `Cache`.
final class InjectOwner {
    @Inject var logger: Logger
    @Inject var cache: Cache
}

/// The same owner written without wrappers: both dependencies resolved directly from a container.
final class DirectOwner {
    let logger: Logger
    let cache: Cache

    init(_ container: Container) {
        logger = try! container.resolve(Logger.self)
        cache = try! container.resolve(Cache.self)
    }
}

/// The same owner written the way `@Inject` reads: each property resolved from `Container.current`.
final class CurrentOwner {
    let logger = try! Container.current.resolve(Logger.self)
    let cache = try! Container.current.resolve(Cache.self)
}

/// The same owner built by a container's factory, resolving by hand through the factory's `Resolver`.
final class ResolverOwner {
    let logger: Logger
    let cache: Cache

    init(_ resolver: any Resolver) {
        logger = try! resolver.resolve(Logger.self)
        cache = try! resolver.resolve(Cache.self)
    }
}

/// Resolves its `Cache` on the first read and keeps it.
final class LazyInjectOwner {
    @LazyInject var cache: Cache
}

let benchmarks: @Sendable () -> Void = {
    let app = Container(name: "app")
    try! app.register(Logger.self, scope: .singleton) { _ in Logger() }
    try! app.register(Cache.self) { _ in Cache() }
    try! app.register(InjectOwner.self) { _ in InjectOwner() }
    try! app.register(ResolverOwner.self) { resolver in ResolverOwner(resolver) }
    blackHole(try! app.resolve(Logger.self))

    Benchmark("Container.inject-owner-init", configuration: Scenario.micro) { benchmark in
        withContainer(app) {
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(InjectOwner())
            }
            benchmark.stopMeasurement()
        }
    }

    // What `@Inject` replaces: resolving from the ambient container by hand (once per owner, and once per
    // property as each `@Inject` does), and from a container held.
    Benchmark("Container.inject-owner-init-current", configuration: Scenario.micro) { benchmark in
        withContainer(app) {
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(DirectOwner(Container.current))
            }
            benchmark.stopMeasurement()
        }
    }

    Benchmark("Container.inject-owner-init-current-each", configuration: Scenario.micro) { benchmark in
        withContainer(app) {
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(CurrentOwner())
            }
            benchmark.stopMeasurement()
        }
    }

    Benchmark("Container.inject-owner-init-held", configuration: Scenario.micro) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(DirectOwner(app))
        }
    }

    // Owners a container builds: inside a factory, `@Inject` resolves from the factory's container.
    Benchmark("Container.inject-owner-factory", configuration: Scenario.micro) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try! app.resolve(InjectOwner.self))
        }
    }

    Benchmark("Container.inject-owner-factory-resolver", configuration: Scenario.micro) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try! app.resolve(ResolverOwner.self))
        }
    }

    // What a handler pays for a `@LazyInject` it reads once: the wrapper made (capturing the ambient
    // container), the first read resolving, the owner released.
    Benchmark("Container.lazyinject-owner-first-read", configuration: Scenario.micro) { benchmark in
        withContainer(app) {
            for _ in benchmark.scaledIterations {
                blackHole(LazyInjectOwner().cache)
            }
        }
    }

    let owner = withContainer(app) {
        let owner = LazyInjectOwner()
        blackHole(owner.cache)
        return owner
    }
    Benchmark("Container.lazyinject-read", configuration: Scenario.micro) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(owner.cache)
        }
    }
}
