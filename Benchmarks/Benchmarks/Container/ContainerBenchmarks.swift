import Benchmark
import BenchmarkFixtures
import DICore
import DIScopes

// DIToolkit's container (DICore): the same services and scenarios as the contenders. Singletons
// use `.singleton`, new objects the default `.transient`; failed lookups throw `ResolutionError`.

/// The same services, registered the way a DIToolkit user would.
func registerServices(in app: Container) throws {
    try app.register(Logger.self, scope: .singleton) { _ in Logger() }
    try app.register(Cache.self) { _ in Cache() }
    try app.register(Database.self) { r in Database(logger: try r.resolve(Logger.self)) }
    try app.register(Database.self, name: "primary", scope: .singleton) { r in
        Database(logger: try r.resolve(Logger.self))
    }
    try app.register(Repository.self) { r in
        Repository(database: try r.resolve(Database.self), cache: try r.resolve(Cache.self))
    }
    try app.register(ViewModel.self) { r in ViewModel(repository: try r.resolve(Repository.self)) }
    try registerGraph20(in: app)
}

func registerGraph20(in c: Container) throws {
    try c.register(G01.self) { r in G01(a: try r.resolve(), b: try r.resolve(), c: try r.resolve()) }
    try c.register(G02.self) { r in G02(a: try r.resolve(), b: try r.resolve(), c: try r.resolve()) }
    try c.register(G03.self) { r in G03(a: try r.resolve(), b: try r.resolve(), c: try r.resolve()) }
    try c.register(G04.self) { r in G04(a: try r.resolve(), b: try r.resolve(), c: try r.resolve()) }
    try c.register(G05.self) { r in G05(a: try r.resolve()) }
    try c.register(G06.self) { r in G06(a: try r.resolve()) }
    try c.register(G07.self) { r in G07(a: try r.resolve()) }
    try c.register(G08.self) { r in G08(a: try r.resolve()) }
    try c.register(G09.self) { r in G09(a: try r.resolve()) }
    try c.register(G10.self) { r in G10(a: try r.resolve()) }
    try c.register(G11.self) { r in G11(logger: try r.resolve()) }
    try c.register(G12.self) { r in G12(logger: try r.resolve()) }
    try c.register(G13.self) { r in G13(logger: try r.resolve()) }
    try c.register(G14.self) { _ in G14() }
    try c.register(G15.self) { _ in G15() }
    try c.register(G16.self) { _ in G16() }
    try c.register(G17.self) { _ in G17() }
    try c.register(G18.self) { _ in G18() }
    try c.register(G19.self) { _ in G19() }
}

/// A chain of `levels` empty child containers below `root`.
func descendant(of root: Container, levels: Int) -> Container {
    var container = root
    for level in 1...levels {
        container = container.child(name: "level-\(level)")
    }
    return container
}

let benchmarks: @Sendable () -> Void = {
    let app = Container(name: "app")
    try! registerServices(in: app)
    // Build the singletons once, so every scenario measures the cached path.
    blackHole(try! app.resolve(Logger.self))
    blackHole(try! app.resolve(Database.self, name: "primary"))

    Benchmark("Container.resolve-singleton", configuration: Scenario.micro) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try app.resolve(Logger.self))
        }
    }

    Benchmark("Container.resolve-transient", configuration: Scenario.micro) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try app.resolve(Cache.self))
        }
    }

    Benchmark("Container.resolve-named", configuration: Scenario.micro) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try app.resolve(Database.self, name: "primary"))
        }
    }

    Benchmark("Container.resolve-graph-5", configuration: Scenario.micro) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try app.resolve(ViewModel.self))
        }
    }

    Benchmark("Container.resolve-graph-20", configuration: Scenario.micro) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try app.resolve(G01.self))
        }
    }

    relationshipBenchmarks(app: app)

    for levels in [1, 3] {
        let child = descendant(of: app, levels: levels)
        Benchmark("Container.resolve-singleton-child-\(levels)", configuration: Scenario.micro) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try child.resolve(Logger.self))
            }
        }
        Benchmark("Container.resolve-graph-5-child-\(levels)", configuration: Scenario.micro) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try child.resolve(ViewModel.self))
            }
        }
    }

    for size in Scenario.missingTableSizes {
        let table = Container(name: "table")
        for name in Scenario.serviceNames(size) {
            try! table.register(Cache.self, name: name) { _ in Cache() }
        }
        Benchmark(
            "Container.resolve-missing-\(Scenario.label(size))",
            configuration: Scenario.missing(tableSize: size)
        ) { benchmark in
            for _ in benchmark.scaledIterations {
                do {
                    blackHole(try table.resolve(Cache.self, name: "missing"))
                } catch {
                    blackHole(error)
                }
            }
        }
    }

    for size in Scenario.registerResolveSizes {
        Benchmark(
            "Container.register-resolve-\(Scenario.label(size))",
            configuration: Scenario.registerResolve(count: size)
        ) { benchmark, names in
            let container = Container(name: "named")
            for name in names {
                try container.register(Cache.self, name: name) { _ in Cache() }
            }
            for name in names {
                blackHole(try container.resolve(Cache.self, name: name))
            }
        } setup: {
            Scenario.serviceNames(size)
        }
    }

    try! app.register(ShardA.self, scope: .singleton) { _ in ShardA() }
    try! app.register(ShardB.self, scope: .singleton) { _ in ShardB() }
    blackHole(try! app.resolve(ShardA.self))
    blackHole(try! app.resolve(ShardB.self))
    for threads in [1, 2] {
        Scenario.threadBenchmark(
            "Container.threads-distinct-\(threads)",
            threads: threads,
            total: Scenario.ThreadWork.fast.singletonResolves
        ) { count, thread in
            for _ in 0..<count {
                if thread == 0 { blackHole(try! app.resolve(ShardA.self)) } else { blackHole(try! app.resolve(ShardB.self)) }
            }
        }
    }

    for threads in [1, 2] {
        Scenario.threadBenchmark(
            "Container.threads-singleton-\(threads)",
            threads: threads,
            total: Scenario.ThreadWork.fast.singletonResolves
        ) { count in
            for _ in 0..<count {
                blackHole(try! app.resolve(Logger.self))
            }
        }
        Scenario.threadBenchmark(
            "Container.threads-graph-\(threads)",
            threads: threads,
            total: Scenario.ThreadWork.fast.graphResolves
        ) { count in
            for _ in 0..<count {
                blackHole(try! app.resolve(ViewModel.self))
            }
        }
    }

    // A server's request: a child of the app container tagged "request", given the request's value, asked for
    // a request-scoped service, and closed (disposing it). Every request is a child of the same app container,
    // whichever thread makes it.
    let server = Container(name: "server")
    try! server.register(UnitOfWork.self, scope: .matching("request")) { r in
        UnitOfWork(requestID: try r.resolve(String.self))
    }
    for threads in [1, 2] {
        Scenario.threadBenchmark(
            "Container.threads-request-\(threads)",
            threads: threads,
            total: Scenario.ThreadWork.fast.requests
        ) { count in
            for _ in 0..<count {
                let request = server.child(name: "request", tags: ["request"])
                try! request.register(value: "request-id")
                blackHole(try! request.resolve(UnitOfWork.self))
                request.close()
            }
        }
    }

    // Registered with DIToolkit's default scope (`.transient`).
    Benchmark("Container.memory-10M-resolves", configuration: Scenario.memory) { benchmark, state in
        try Scenario.measureResidentGrowth(benchmark, state.tracker) {
            blackHole(try state.container.resolve(Cache.self))
        }
    } setup: {
        let container = Container(name: "memory")
        try container.register(Cache.self) { _ in Cache() }
        return (container: container, tracker: ResidentTracker())
    }

    // A live container of 200 singletons whose one key is registered again 100,000 times (1,000 per
    // iteration): replaced tables and singletons must be freed, so resident memory stays flat.
    Benchmark("Container.memory-100k-reregistrations", configuration: Scenario.memory) { benchmark, state in
        try Scenario.measureResidentGrowth(benchmark, state.tracker, total: 100_000) {
            try state.container.register(Logger.self, scope: .singleton) { _ in Logger() }
            blackHole(try state.container.resolve(Logger.self))
        }
    } setup: { () throws -> (container: Container, tracker: ResidentTracker) in
        let container = Container(name: "memory")
        for index in 0..<200 {
            try container.register(Int.self, name: "key\(index)", scope: .singleton) { _ in index }
        }
        try container.register(Logger.self, scope: .singleton) { _ in Logger() }
        blackHole(try container.resolve(Logger.self))
        return (container: container, tracker: ResidentTracker())
    }
}

/// A request-scoped service that is disposed when its request's container closes.
final class UnitOfWork: Disposable, Sendable {
    let requestID: String

    init(requestID: String) { self.requestID = requestID }

    func dispose() { blackHole(requestID) }
}
