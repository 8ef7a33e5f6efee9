/// Lets at most `limit` callers through at once; the others wait their turn, first come first served.
///
/// For test cases that Swift Testing would otherwise run all at once: a thousand cases started together on two
/// cores each take as long as all of them, and a per-case time limit then fails them all.
package actor Turnstile {
    private let limit: Int
    private var inside = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    package init(_ limit: Int) { self.limit = max(1, limit) }

    /// Runs `body` once fewer than `limit` others are running.
    package func pass<Value: Sendable>(_ body: @Sendable () async -> Value) async -> Value {
        if inside < limit {
            inside += 1
        } else {
            await withCheckedContinuation { waiting.append($0) }
        }
        let value = await body()
        // The place goes to the next in line, or back to the turnstile.
        if waiting.isEmpty { inside -= 1 } else { waiting.removeFirst().resume() }
        return value
    }
}
