import Benchmark
import BenchmarkFixtures

// The floor: the same objects built by hand, with no container. Where a scenario is about a
// registry (a failed lookup, registering named services), the baseline is the smallest registry
// one would write by hand: a dictionary from name to factory closure.

/// The singletons of the hand-written composition root.
final class CompositionRoot: Sendable {
    let logger = Logger()
    let primaryDatabase: Database

    init() {
        primaryDatabase = Database(logger: logger)
    }

    func makeViewModel() -> ViewModel {
        ViewModel(repository: Repository(database: Database(logger: logger), cache: Cache()))
    }

    func makeG01() -> G01 {
        G01(
            a: G02(a: G05(a: G14()), b: G06(a: G15()), c: G07(a: G16())),
            b: G03(a: G08(a: G17()), b: G09(a: G18()), c: G10(a: G19())),
            c: G04(a: G11(logger: logger), b: G12(logger: logger), c: G13(logger: logger))
        )
    }
}

struct LookupFailed: Error {
    let name: String
}

/// The hand-written registry: a dictionary of factories keyed by name.
struct Registry {
    var factories: [String: () -> Cache] = [:]

    mutating func register(_ name: String, _ factory: @escaping () -> Cache) {
        factories[name] = factory
    }

    func resolve(_ name: String) throws -> Cache {
        guard let factory = factories[name] else { throw LookupFailed(name: name) }
        return factory()
    }
}

let benchmarks: @Sendable () -> Void = {
    let root = CompositionRoot()

    Benchmark("Handwritten.resolve-singleton", configuration: Scenario.micro) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(root.logger)
        }
    }

    Benchmark("Handwritten.resolve-transient", configuration: Scenario.micro) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(Cache())
        }
    }

    Benchmark("Handwritten.resolve-named", configuration: Scenario.micro) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(root.primaryDatabase)
        }
    }

    Benchmark("Handwritten.resolve-graph-5", configuration: Scenario.micro) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(root.makeViewModel())
        }
    }

    Benchmark("Handwritten.resolve-graph-20", configuration: Scenario.micro) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(root.makeG01())
        }
    }

    // Property wrappers: the owner's dependencies passed to its initialiser, and a stored read.
    Benchmark("Handwritten.inject-owner-init", configuration: Scenario.micro) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(HandwrittenOwner(logger: root.logger, cache: Cache()))
        }
    }

    let owner = HandwrittenOwner(logger: root.logger, cache: Cache())
    Benchmark("Handwritten.lazyinject-read", configuration: Scenario.micro) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(owner.cache)
        }
    }

    for size in Scenario.missingTableSizes {
        var registry = Registry()
        for name in Scenario.serviceNames(size) {
            registry.register(name) { Cache() }
        }
        let table = registry
        Benchmark(
            "Handwritten.resolve-missing-\(Scenario.label(size))",
            configuration: Scenario.missing(tableSize: size)
        ) { benchmark in
            for _ in benchmark.scaledIterations {
                do {
                    blackHole(try table.resolve("missing"))
                } catch {
                    blackHole(error)
                }
            }
        }
    }

    for size in Scenario.registerResolveSizes {
        Benchmark(
            "Handwritten.register-resolve-\(Scenario.label(size))",
            configuration: Scenario.registerResolve(count: size)
        ) { benchmark, names in
            var registry = Registry()
            for name in names {
                registry.register(name) { Cache() }
            }
            for name in names {
                blackHole(try registry.resolve(name))
            }
        } setup: {
            Scenario.serviceNames(size)
        }
    }

    for threads in [1, 2] {
        Scenario.threadBenchmark(
            "Handwritten.threads-singleton-\(threads)",
            threads: threads,
            total: Scenario.ThreadWork.fast.singletonResolves
        ) { count in
            for _ in 0..<count {
                blackHole(root.logger)
            }
        }
        Scenario.threadBenchmark(
            "Handwritten.threads-graph-\(threads)",
            threads: threads,
            total: Scenario.ThreadWork.fast.graphResolves
        ) { count in
            for _ in 0..<count {
                blackHole(root.makeViewModel())
            }
        }
    }

    // The floor of any resolve that hands out a strong reference to one shared singleton: a
    // retain and a release of that object. Two threads doing it at once contend for the object's
    // reference count, so this shows how much of the singleton rows' two-thread scaling is ARC's.
    let shards = (ShardA(), ShardB())
    for threads in [1, 2] {
        Scenario.threadBenchmark(
            "Handwritten.threads-distinct-\(threads)",
            threads: threads,
            total: Scenario.ThreadWork.fast.singletonResolves
        ) { count, thread in
            for _ in 0..<count {
                if thread == 0 { blackHole(shards.0) } else { blackHole(shards.1) }
            }
        }
    }

    for threads in [1, 2] {
        Scenario.threadBenchmark(
            "Handwritten.threads-retain-\(threads)",
            threads: threads,
            total: Scenario.ThreadWork.fast.singletonResolves
        ) { count in
            for _ in 0..<count {
                let reference = Unmanaged.passRetained(root.logger)
                blackHole(reference)
                reference.release()
            }
        }
    }

    Benchmark("Handwritten.memory-10M-resolves", configuration: Scenario.memory) { benchmark, tracker in
        Scenario.measureResidentGrowth(benchmark, tracker) {
            blackHole(Cache())
        }
    } setup: {
        ResidentTracker()
    }
}
