/// A barrier for concurrency tests: `arrive()` suspends until `expected` callers have arrived, so that the
/// requests of a test are all inside their handlers at the same moment.
actor Arrivals {
    private let expected: Int
    private var arrived = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(expected: Int) { self.expected = expected }

    func arrive() async {
        arrived += 1
        if arrived >= expected {
            for continuation in waiting { continuation.resume() }
            waiting = []
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }
}
