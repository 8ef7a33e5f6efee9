extension Container {
    /// This container's own registrations (not its ancestors'), in registration order.
    ///
    /// A snapshot for tools and tests: diagnostics draw the graph from it, using `dependencies` for the edges
    /// known without running any factory.
    ///
    /// ```swift
    /// for info in app.registrations {
    ///     print(info, info.dependencies)   // Repository (singleton) in app at App/Setup.swift:14 [Database]
    /// }
    /// ```
    public var registrations: [RegistrationInfo] {
        registry.all.map { RegistrationInfo($0, in: self) }
    }
}
