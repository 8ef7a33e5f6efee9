import DICore
import Synchronization

/// Counts the live instances of `Tracked`, so that a leak test checks what is freed by counting, never by
/// timing.
package final class Population: Sendable {
    private let live = Atomic<Int>(0)
    private let made = Atomic<Int>(0)

    package init() {}

    package func born() {
        live.add(1, ordering: .relaxed)
        made.add(1, ordering: .relaxed)
    }

    package func died() { live.subtract(1, ordering: .relaxed) }

    /// Instances alive now.
    package var alive: Int { live.load(ordering: .relaxed) }
    /// Instances ever made.
    package var built: Int { made.load(ordering: .relaxed) }
}

/// A service that counts itself in a `Population` from `init` to `deinit`.
package final class Tracked: Disposable, Sendable {
    package let population: Population

    package init(_ population: Population) {
        self.population = population
        population.born()
    }

    deinit { population.died() }

    package func dispose() {}
}
