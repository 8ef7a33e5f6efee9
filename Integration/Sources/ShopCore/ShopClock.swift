/// The shop's source of time, so that receipts and tests agree on "now".
///
/// ```swift
/// let placedAt = try app.resolve(\.clock).now
/// ```
public protocol ShopClock: Sendable {
    /// Seconds since 1970-01-01 00:00 UTC.
    var now: Int { get }
}
