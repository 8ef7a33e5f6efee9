import Synchronization

/// Unique ids for resolutions, used to find cycles between threads.
enum ResolutionTokens {
    private static let counter = Atomic<Int>(0)

    static func next() -> Int { counter.add(1, ordering: .relaxed).newValue }
}
