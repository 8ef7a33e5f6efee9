import Benchmark
import BenchmarkFixtures
import Dependencies

// Contender: swift-dependencies 1.17, through its public surface: `@Dependency` reads,
// `withDependencies` scopes and `DependencyValues` keys (see Keys.swift for the translation of
// singletons, new objects, names and graphs). Failed lookups and registering services at run time
// have no equivalent (keys are types, checked by the compiler), so those scenarios are absent.

let benchmarks: @Sendable () -> Void = {
    // Build the live singletons once, so every scenario measures the cached path.
    blackHole(read(\.logger))
    blackHole(read(\.primaryDatabase))

    Benchmark("Dependencies.resolve-singleton", configuration: Scenario.micro) { benchmark in
        for _ in benchmark.scaledIterations {
            @Dependency(\.logger) var logger
            blackHole(logger)
        }
    }

    Benchmark("Dependencies.resolve-transient", configuration: Scenario.micro) { benchmark in
        for _ in benchmark.scaledIterations {
            @Dependency(\.makeCache) var makeCache
            blackHole(makeCache())
        }
    }

    Benchmark("Dependencies.resolve-named", configuration: Scenario.micro) { benchmark in
        for _ in benchmark.scaledIterations {
            @Dependency(\.primaryDatabase) var database
            blackHole(database)
        }
    }

    Benchmark("Dependencies.resolve-graph-5", configuration: Scenario.micro) { benchmark in
        for _ in benchmark.scaledIterations {
            @Dependency(\.makeViewModel) var makeViewModel
            blackHole(makeViewModel())
        }
    }

    Benchmark("Dependencies.resolve-graph-20", configuration: Scenario.micro) { benchmark in
        for _ in benchmark.scaledIterations {
            @Dependency(\.g01) var makeG01
            blackHole(makeG01())
        }
    }

    // A child level is a nested `withDependencies` scope that overrides something else (here the
    // cache factory); the read happens inside the innermost scope.
    for levels in [1, 3] {
        func nested(_ depth: Int, _ body: () -> Void) {
            guard depth > 0 else { return body() }
            withDependencies {
                $0.makeCache = Factory { Cache(capacity: depth) }
            } operation: {
                nested(depth - 1, body)
            }
        }
        Benchmark("Dependencies.resolve-singleton-child-\(levels)", configuration: Scenario.micro) { benchmark in
            nested(levels) {
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations {
                    @Dependency(\.logger) var logger
                    blackHole(logger)
                }
                benchmark.stopMeasurement()
            }
        }
        Benchmark("Dependencies.resolve-graph-5-child-\(levels)", configuration: Scenario.micro) { benchmark in
            nested(levels) {
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations {
                    @Dependency(\.makeViewModel) var makeViewModel
                    blackHole(makeViewModel())
                }
                benchmark.stopMeasurement()
            }
        }
    }

    // The contender of @Inject (owner initialisation) and @LazyInject (a read after the first).
    Benchmark("Dependencies.inject-owner-init", configuration: Scenario.micro) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(DependencyOwner())
        }
    }

    let owner = DependencyOwner()
    blackHole(owner.logger)
    Benchmark("Dependencies.lazyinject-read", configuration: Scenario.micro) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(owner.logger)
        }
    }

    for threads in [1, 2] {
        Benchmark("Dependencies.threads-singleton-\(threads)", configuration: Scenario.threads) { _ in
            Scenario.runSplit(threads: threads, total: Scenario.threadSingletonResolves) { count in
                for _ in 0..<count {
                    @Dependency(\.logger) var logger
                    blackHole(logger)
                }
            }
        }
        Benchmark("Dependencies.threads-graph-\(threads)", configuration: Scenario.threads) { _ in
            Scenario.runSplit(threads: threads, total: Scenario.threadGraphResolves) { count in
                for _ in 0..<count {
                    @Dependency(\.makeViewModel) var makeViewModel
                    blackHole(makeViewModel())
                }
            }
        }
    }

    Benchmark("Dependencies.memory-10M-resolves", configuration: Scenario.memory) { benchmark, tracker in
        Scenario.measureResidentGrowth(benchmark, tracker) {
            @Dependency(\.makeCache) var makeCache
            blackHole(makeCache())
        }
    } setup: {
        ResidentTracker()
    }
}
