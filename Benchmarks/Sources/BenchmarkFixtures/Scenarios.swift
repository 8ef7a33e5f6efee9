import Synchronization
import Benchmark
import Dispatch
import Foundation

/// The configurations, sizes and helpers that every benchmark target shares, so that the
/// contenders run the same amount of work under the same settings.
public enum Scenario {
    /// The metrics of the resolve scenarios: time, and allocations as a budget
    /// (a cached singleton resolve should allocate nothing).
    public static var resolveMetrics: [BenchmarkMetric] { [.wallClock, .throughput, .mallocCountTotal] }

    /// Micro-benchmarks: 1,000 operations per measured iteration, so the reported time is per
    /// 1,000 operations (package-benchmark shows it scaled to one operation with `*`).
    public static var micro: Benchmark.Configuration {
        Benchmark.Configuration(
            metrics: resolveMetrics,
            warmupIterations: 10,
            scalingFactor: .kilo,
            maxDuration: .milliseconds(600),
            maxIterations: 2_000,
            thresholds: [
                .wallClock: timeTolerance,
                .throughput: unchecked,
                // Allocation counts are exact: 10 extra per 1,000 operations is already a change.
                .mallocCountTotal: BenchmarkThresholds(absolute: [.p90: 10]),
            ]
        )
    }

    /// Scenarios whose single operation is slow (a failed lookup in a large table,
    /// registering 100,000 services): one operation per measured iteration.
    public static func macro(maxDuration: Duration = .seconds(1), maxIterations: Int = 1_000) -> Benchmark.Configuration {
        Benchmark.Configuration(
            metrics: resolveMetrics,
            warmupIterations: 1,
            scalingFactor: .one,
            maxDuration: maxDuration,
            maxIterations: maxIterations,
            thresholds: [
                .wallClock: timeTolerance,
                .throughput: unchecked,
                // Large registration runs vary by a few allocations between runs (runtime caches).
                .mallocCountTotal: BenchmarkThresholds(relative: [.p90: 2]),
            ]
        )
    }

    /// The thread scenarios: a fixed amount of work, done by one thread or split across two,
    /// reported as wall clock per run and as time per operation. Aggregate throughput on two
    /// threads relative to one is `timePerOperation(1) / timePerOperation(2)`.
    public static var threads: Benchmark.Configuration {
        Benchmark.Configuration(
            metrics: [.wallClock, .throughput, timePerOperation],
            warmupIterations: 2,
            scalingFactor: .one,
            maxDuration: .seconds(1),
            maxIterations: 40,
            thresholds: [
                .wallClock: threadTolerance,
                .throughput: unchecked,
                timePerOperation: threadTolerance,
            ]
        )
    }

    /// The memory scenario: one warm-up iteration, then ``memoryResolves`` resolves in
    /// ``memoryIterations`` measured iterations, with the resident set size read after the
    /// warm-up (so the process, the container and package-benchmark itself have settled) and after
    /// the last. Each iteration stays well under a second, so package-benchmark also records a
    /// throughput, which its JMH export needs.
    public static var memory: Benchmark.Configuration {
        Benchmark.Configuration(
            metrics: [.wallClock, .throughput, residentBefore, residentAfter, residentGrowth],
            warmupIterations: 1,
            scalingFactor: .one,
            maxDuration: .seconds(300),
            maxIterations: memoryIterations,
            thresholds: [
                .wallClock: threadTolerance,
                .throughput: unchecked,
                residentBefore: BenchmarkThresholds(relative: [.p90: 25]),
                residentAfter: BenchmarkThresholds(relative: [.p90: 25]),
                // Growth is the point: 2 MB more than the recorded run is a leak.
                residentGrowth: BenchmarkThresholds(absolute: [.p90: 2_048]),
            ]
        )
    }

    /// The failed-lookup scenarios: 1,000 lookups per iteration in the small table, one in the
    /// large one (a slow contender takes milliseconds per lookup there).
    public static func missing(tableSize: Int) -> Benchmark.Configuration {
        tableSize <= 10 ? micro : macro(maxDuration: .seconds(1), maxIterations: 500)
    }

    /// The register-and-resolve scenarios: one whole run (register all, resolve all) per
    /// iteration; more iterations for the small runs, so their p90 is not their worst run.
    public static func registerResolve(count: Int) -> Benchmark.Configuration {
        macro(maxDuration: .seconds(1), maxIterations: max(5, 200_000 / count))
    }

    // MARK: Regression tolerances

    // `swift package benchmark thresholds check` compares a run with the p90 values recorded in
    // Thresholds/ and reports any metric that moved by more than these. A metric without a
    // tolerance here would be checked exactly. Time on a shared 2-core machine wanders, so the
    // time tolerances are wide; allocation counts and memory growth are tight.

    /// Wall clock of the single-threaded scenarios: ±50% at p90.
    public static var timeTolerance: BenchmarkThresholds {
        BenchmarkThresholds(relative: [.p90: 50])
    }

    /// Time of the thread and memory scenarios (two threads on two cores meet every other
    /// process and package-benchmark's own sampler): ±100% at p90.
    public static var threadTolerance: BenchmarkThresholds {
        BenchmarkThresholds(relative: [.p90: 100])
    }

    /// Throughput is recorded only because package-benchmark's JMH export needs it; it says what
    /// wall clock says, so it is not checked twice.
    public static var unchecked: BenchmarkThresholds {
        BenchmarkThresholds(relative: [:], absolute: [:])
    }

    // MARK: Sizes

    /// Registrations in the small and large failed-lookup tables.
    public static let missingTableSizes = [10, 10_000]
    /// Named services registered and then resolved, each size its own benchmark.
    public static let registerResolveSizes = [1_000, 10_000, 100_000]
    /// Resolves in the memory scenario.
    public static let memoryResolves = 10_000_000
    /// Measured iterations the memory scenario's resolves are spread over.
    public static let memoryIterations = 100

    /// The names `service-0`, `service-1`, … built outside the measured region.
    public static func serviceNames(_ count: Int) -> [String] {
        (0..<count).map { "service-\($0)" }
    }

    /// A short label for a size: 10, 10k, 100k.
    public static func label(_ count: Int) -> String {
        count >= 1_000 && count % 1_000 == 0 ? "\(count / 1_000)k" : "\(count)"
    }

    // MARK: Memory

    public static var residentBefore: BenchmarkMetric { BenchmarkMetric.custom("RSS before (KB)", polarity: .prefersSmaller, useScalingFactor: false) }
    public static var residentAfter: BenchmarkMetric { BenchmarkMetric.custom("RSS after (KB)", polarity: .prefersSmaller, useScalingFactor: false) }
    public static var residentGrowth: BenchmarkMetric { BenchmarkMetric.custom("RSS growth (KB)", polarity: .prefersSmaller, useScalingFactor: false) }

    /// The resident set size of this process in kilobytes, from `/proc/self/statm` (Linux), or 0
    /// where that file does not exist.
    public static func residentKilobytes() -> Int {
        guard
            let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
            let pages = statm.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1_024
    }

    /// Runs one iteration of the memory scenario: `total` / ``memoryIterations`` calls
    /// of `body`. The first call (the warm-up) ends by reading the resident set size; the call that
    /// completes ``memoryResolves`` more resolves reads it again and reports both, and the growth,
    /// as the scenario's custom metrics.
    public static func measureResidentGrowth(
        _ benchmark: Benchmark,
        _ tracker: ResidentTracker,
        total: Int = memoryResolves,
        _ body: () throws -> Void
    ) rethrows {
        for _ in 0..<(total / memoryIterations) {
            try body()
        }
        tracker.iterations += 1
        if tracker.iterations == 1 {
            tracker.before = residentKilobytes()
        } else if tracker.iterations == memoryIterations + 1 {
            let after = residentKilobytes()
            benchmark.measurement(residentBefore, tracker.before)
            benchmark.measurement(residentAfter, after)
            benchmark.measurement(residentGrowth, max(0, after - tracker.before))
        }
    }

    // MARK: Threads

    /// The work of one thread-scenario run, split evenly when two threads share it. A fast
    /// contender gets ten times the work of a slow one, so that every run takes tens of
    /// milliseconds (long enough to measure, under the second package-benchmark's export needs);
    /// the results are compared per operation.
    public enum ThreadWork: Sendable {
        /// DIToolkit and hand-written code.
        case fast
        /// Swinject and swift-dependencies.
        case slow

        public var singletonResolves: Int { self == .fast ? 2_000_000 : 200_000 }
        public var graphResolves: Int { self == .fast ? 200_000 : 40_000 }
        /// Request containers made, used and closed (DIToolkit only).
        public var requests: Int { self == .fast ? 200_000 : 20_000 }
    }

    /// Wall-clock time of a thread-scenario run divided by its operations, in picoseconds.
    public static var timePerOperation: BenchmarkMetric {
        BenchmarkMetric.custom("Time per operation (ps)", polarity: .prefersSmaller, useScalingFactor: false)
    }

    /// Declares a thread scenario: `total` operations split across `threads` threads, reported
    /// as wall clock and as ``timePerOperation``.
    public static func threadBenchmark(
        _ name: String,
        threads: Int,
        total: Int,
        _ work: @escaping @Sendable (_ count: Int) -> Void
    ) {
        Benchmark(name, configuration: Scenario.threads) { benchmark in
            let clock = ContinuousClock()
            let start = clock.now
            runSplit(threads: threads, total: total, work)
            let elapsed = start.duration(to: clock.now).components
            let picoseconds = elapsed.seconds * 1_000_000_000_000 + elapsed.attoseconds / 1_000_000
            benchmark.measurement(timePerOperation, Int(picoseconds) / total)
        }
    }

    /// Declares a thread scenario whose work knows which thread runs it (`0` or `1`); with one thread,
    /// that thread does the work of both, one half after the other, so the same operations are measured.
    public static func threadBenchmark(
        _ name: String,
        threads: Int,
        total: Int,
        indexed work: @escaping @Sendable (_ count: Int, _ thread: Int) -> Void
    ) {
        threadBenchmark(name, threads: threads, total: total) { count in
            if threads == 1 {
                work(count / 2, 0)
                work(count / 2, 1)
            } else {
                work(count, ThreadIndex.next())
            }
        }
    }

    /// Splits `total` operations evenly across `threads` threads, runs them at the same time and
    /// returns when all have finished. Thread start-up is paid for one thread too, so the two
    /// variants differ only in how the work is shared.
    public static func runSplit(
        threads: Int,
        total: Int,
        _ work: @escaping @Sendable (_ count: Int) -> Void
    ) {
        let share = total / threads
        let group = DispatchGroup()
        for _ in 0..<threads {
            group.enter()
            Thread {
                work(share)
                group.leave()
            }.start()
        }
        group.wait()
    }
}

/// The memory scenario's state, made by the benchmark's setup: the resident set size after the
/// warm-up iteration and the iterations done so far.
public final class ResidentTracker {
    var before = 0
    var iterations = 0

    public init() {}
}

/// Hands out `0`, `1`, `0`, `1`, … to the threads of an indexed thread scenario.
enum ThreadIndex {
    private static let counter = Atomic<Int>(0)

    static func next() -> Int { counter.add(1, ordering: .relaxed).oldValue % 2 }
}
