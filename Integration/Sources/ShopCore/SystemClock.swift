#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The wall clock: the default of the `\.clock` key.
///
/// ```swift
/// let clock: any ShopClock = SystemClock()
/// ```
public struct SystemClock: ShopClock {
    /// Makes the wall clock.
    public init() {}

    /// Seconds since 1970-01-01 00:00 UTC, read from the system.
    public var now: Int { Int(time(nil)) }
}
