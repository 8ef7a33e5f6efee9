import DICore

extension ServiceKeys {
    /// The shop's clock: one ``SystemClock`` per container tree unless a container registers another.
    ///
    /// ```swift
    /// let now = try app.resolve(\.clock).now
    /// try testContainer.register(\.clock) { _ in FixedClock(now: 0) }
    /// ```
    public var clock: ServiceKey<any ShopClock> { .init(scope: .singleton) { _ in SystemClock() } }
}
