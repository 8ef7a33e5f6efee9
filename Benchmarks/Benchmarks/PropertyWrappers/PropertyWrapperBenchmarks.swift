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

/// Resolves its `Cache` on the first read and keeps it.
final class LazyInjectOwner {
    @LazyInject var cache: Cache
}

let benchmarks: @Sendable () -> Void = {
    let app = Container(name: "app")
    try! app.register(Logger.self, scope: .singleton) { _ in Logger() }
    try! app.register(Cache.self) { _ in Cache() }
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
