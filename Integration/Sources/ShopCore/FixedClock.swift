/// A clock that always reads the same time, for tests and repeatable demos.
///
/// ```swift
/// try checkout.register(\.clock) { _ in FixedClock(now: 1_767_225_600) }
/// ```
public struct FixedClock: ShopClock {
    /// The time it always reads.
    public let now: Int

    /// Makes a clock stopped at `now`.
    ///
    /// - Parameter now: Seconds since 1970-01-01 00:00 UTC.
    public init(now: Int) {
        self.now = now
    }
}
