import Synchronization

/// Work the hand-wired server can add to every request, to calibrate `Integration/load.sh`: what extra
/// *code* costs a server under load, apart from the instructions it runs.
///
/// ```sh
/// shop-server --hand-wired --synthetic-work cold-code     # or all three: Integration/load.sh --calibrate
/// ```
///
/// Both kinds run the same instructions per request, about 10,000. ``coldCode`` spreads them over 500 functions of
/// their own (with their thunks about 840 cache lines of machine code that nothing else runs; `load.sh --calibrate`
/// counts them in the binary), so that under load, where the kernel and the HTTP stack run between two requests,
/// every line is fetched again on every request, as the lines of a request container's code are. ``hotLoop`` runs
/// them in one small function, whose few lines stay cached. The difference between the two, measured in one load
/// run against the plain hand-wired server, is what those lines cost: the exchange rate between the counts of
/// `Integration/cold-lines.sh` and throughput.
public enum SyntheticWork: String, Sendable, CaseIterable {
    /// 500 distinct functions, each called once per request.
    case coldCode = "cold-code"
    /// One function called 500 times per request.
    case hotLoop = "hot-loop"

    /// Where the result goes, so that the optimiser keeps the calls.
    private static let sink = Atomic<Int>(0)

    /// Runs the work once, from `seed`.
    ///
    /// - Parameter seed: Any number; the result depends on it, so no call can be left out.
    public func run(seed: Int) {
        var value = seed
        switch self {
        case .coldCode:
            for step in Self.steps { value = step(value) }
        case .hotLoop:
            for round in 0..<Self.steps.count { value = Self.hotStep(value, round) }
        }
        Self.sink.store(value, ordering: .relaxed)
    }

    /// The one function of ``hotLoop``: the same operations as each of ``coldCode``'s steps.
    @inline(never)
    private static func hotStep(_ x: Int, _ round: Int) -> Int {
        var y = x &* 848_019_703 &+ 1_638_398_203; y ^= y >> 13; y = y &* 1_638_398_203
        y ^= y >> 16; return (y &+ 848_019_703) ^ (y << 7) &+ round
    }
}
