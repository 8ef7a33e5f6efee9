import Benchmark
import BenchmarkFixtures
import Swinject

// Contender: Swinject 2.10. Singletons use `.container` scope, new objects `.transient` (Swinject's
// default, `.graph`, shares instances within one resolve; the memory scenario measures that
// default). `resolve` returns nil instead of throwing, so the failed-lookup scenarios measure the
// nil lookup, including the description of the available registrations that Swinject builds
// for its log on every failure.

/// The same services, registered the way a Swinject user would.
func registerServices(in container: Container) {
    container.register(Logger.self) { _ in Logger() }.inObjectScope(.container)
    container.register(Cache.self) { _ in Cache() }.inObjectScope(.transient)
    container.register(Database.self) { r in Database(logger: r.resolve(Logger.self)!) }
        .inObjectScope(.transient)
    container.register(Database.self, name: "primary") { r in Database(logger: r.resolve(Logger.self)!) }
        .inObjectScope(.container)
    container.register(Repository.self) { r in
        Repository(database: r.resolve(Database.self)!, cache: r.resolve(Cache.self)!)
    }.inObjectScope(.transient)
    container.register(ViewModel.self) { r in ViewModel(repository: r.resolve(Repository.self)!) }
        .inObjectScope(.transient)
    registerGraph20(in: container)
}

func registerGraph20(in c: Container) {
    c.register(G01.self) { r in G01(a: r.resolve(G02.self)!, b: r.resolve(G03.self)!, c: r.resolve(G04.self)!) }
        .inObjectScope(.transient)
    c.register(G02.self) { r in G02(a: r.resolve(G05.self)!, b: r.resolve(G06.self)!, c: r.resolve(G07.self)!) }
        .inObjectScope(.transient)
    c.register(G03.self) { r in G03(a: r.resolve(G08.self)!, b: r.resolve(G09.self)!, c: r.resolve(G10.self)!) }
        .inObjectScope(.transient)
    c.register(G04.self) { r in G04(a: r.resolve(G11.self)!, b: r.resolve(G12.self)!, c: r.resolve(G13.self)!) }
        .inObjectScope(.transient)
    c.register(G05.self) { r in G05(a: r.resolve(G14.self)!) }.inObjectScope(.transient)
    c.register(G06.self) { r in G06(a: r.resolve(G15.self)!) }.inObjectScope(.transient)
    c.register(G07.self) { r in G07(a: r.resolve(G16.self)!) }.inObjectScope(.transient)
    c.register(G08.self) { r in G08(a: r.resolve(G17.self)!) }.inObjectScope(.transient)
    c.register(G09.self) { r in G09(a: r.resolve(G18.self)!) }.inObjectScope(.transient)
    c.register(G10.self) { r in G10(a: r.resolve(G19.self)!) }.inObjectScope(.transient)
    c.register(G11.self) { r in G11(logger: r.resolve(Logger.self)!) }.inObjectScope(.transient)
    c.register(G12.self) { r in G12(logger: r.resolve(Logger.self)!) }.inObjectScope(.transient)
    c.register(G13.self) { r in G13(logger: r.resolve(Logger.self)!) }.inObjectScope(.transient)
    c.register(G14.self) { _ in G14() }.inObjectScope(.transient)
    c.register(G15.self) { _ in G15() }.inObjectScope(.transient)
    c.register(G16.self) { _ in G16() }.inObjectScope(.transient)
    c.register(G17.self) { _ in G17() }.inObjectScope(.transient)
    c.register(G18.self) { _ in G18() }.inObjectScope(.transient)
    c.register(G19.self) { _ in G19() }.inObjectScope(.transient)
}

/// Swinject's synchronized resolver is documented as safe to use from several threads, but is
/// not declared Sendable; this box states that promise to the compiler for the thread scenarios.
struct SynchronizedResolver: @unchecked Sendable {
    let resolver: any Resolver
}

/// A chain of `levels` empty child containers below `root`.
func descendant(of root: Container, levels: Int) -> Container {
    var container = root
    for _ in 0..<levels {
        container = Container(parent: container)
    }
    return container
}

let benchmarks: @Sendable () -> Void = {
    let app = Container()
    registerServices(in: app)
    // Build the singletons once, so every scenario measures the cached path.
    _ = app.resolve(Logger.self)
    _ = app.resolve(Database.self, name: "primary")

    Benchmark("Swinject.resolve-singleton", configuration: Scenario.micro) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(app.resolve(Logger.self)!)
        }
    }

    Benchmark("Swinject.resolve-transient", configuration: Scenario.micro) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(app.resolve(Cache.self)!)
        }
    }

    Benchmark("Swinject.resolve-named", configuration: Scenario.micro) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(app.resolve(Database.self, name: "primary")!)
        }
    }

    Benchmark("Swinject.resolve-graph-5", configuration: Scenario.micro) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(app.resolve(ViewModel.self)!)
        }
    }

    Benchmark("Swinject.resolve-graph-20", configuration: Scenario.micro) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(app.resolve(G01.self)!)
        }
    }

    for levels in [1, 3] {
        let child = descendant(of: app, levels: levels)
        Benchmark("Swinject.resolve-singleton-child-\(levels)", configuration: Scenario.micro) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(child.resolve(Logger.self)!)
            }
        }
        Benchmark("Swinject.resolve-graph-5-child-\(levels)", configuration: Scenario.micro) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(child.resolve(ViewModel.self)!)
            }
        }
    }

    for size in Scenario.missingTableSizes {
        let table = Container()
        for name in Scenario.serviceNames(size) {
            table.register(Cache.self, name: name) { _ in Cache() }.inObjectScope(.transient)
        }
        Benchmark(
            "Swinject.resolve-missing-\(Scenario.label(size))",
            configuration: Scenario.missing(tableSize: size)
        ) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(table.resolve(Cache.self, name: "missing"))
            }
        }
    }

    for size in Scenario.registerResolveSizes {
        Benchmark(
            "Swinject.register-resolve-\(Scenario.label(size))",
            configuration: Scenario.registerResolve
        ) { benchmark, names in
            let container = Container()
            for name in names {
                container.register(Cache.self, name: name) { _ in Cache() }.inObjectScope(.transient)
            }
            for name in names {
                blackHole(container.resolve(Cache.self, name: name)!)
            }
        } setup: {
            Scenario.serviceNames(size)
        }
    }

    // Swinject's containers are not thread-safe; `synchronize()` is its documented way to share one.
    let shared = SynchronizedResolver(resolver: app.synchronize())
    for threads in [1, 2] {
        Benchmark("Swinject.threads-singleton-\(threads)", configuration: Scenario.threads) { _ in
            Scenario.runSplit(threads: threads, total: Scenario.threadSingletonResolves) { count in
                for _ in 0..<count {
                    blackHole(shared.resolver.resolve(Logger.self)!)
                }
            }
        }
        Benchmark("Swinject.threads-graph-\(threads)", configuration: Scenario.threads) { _ in
            Scenario.runSplit(threads: threads, total: Scenario.threadGraphResolves) { count in
                for _ in 0..<count {
                    blackHole(shared.resolver.resolve(ViewModel.self)!)
                }
            }
        }
    }

    // Registered with Swinject's default scope (`.graph`), as most Swinject code does.
    Benchmark("Swinject.memory-10M-resolves", configuration: Scenario.memory) { benchmark, state in
        Scenario.measureResidentGrowth(benchmark, state.tracker) {
            blackHole(state.container.resolve(Cache.self)!)
        }
    } setup: {
        let container = Container()
        container.register(Cache.self) { _ in Cache() }
        return (container: container, tracker: ResidentTracker())
    }
}
