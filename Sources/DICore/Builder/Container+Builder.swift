extension Container {
    /// Registers every component of a builder with one `try`, all or none.
    ///
    /// ```swift
    /// try app.register {
    ///     Singleton(Clock.self) { _ in SystemClock() }
    ///     Transient(Formatter.self) { _ in Formatter() }
    ///     Register(Cache.self, scope: .singleton) { _ in Cache() }
    /// }
    /// ```
    ///
    /// The registrations are checked first (lifetimes, `overridable: false` here and in ancestors,
    /// including conflicts between two components of the same builder) and applied in one atomic step: if
    /// one is refused, none is applied, and the error names the refused component and where it was written.
    /// Later components replace earlier ones of the same key, as separate `register` calls would.
    /// Behaviours are told about every registration once all are applied.
    ///
    /// - Parameter registrations: The builder: `Singleton`, `Transient`, `Register` components, groups, and
    ///   `if`/`else`/`for` around them.
    /// - Throws: `RegistrationError` (`alreadyRegistered`, `invalidScope`, `containerClosed`, or
    ///   `behaviorFailed`, in which case everything was applied).
    public func register(@RegistrationBuilder _ registrations: () -> RegistrationGroup) throws(RegistrationError) {
        let made = registrations().makeRegistrations()
        guard !made.isEmpty else { return }
        try add(all: made)
    }
}
