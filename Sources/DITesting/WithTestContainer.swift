import DICore
import Testing

/// Runs `body` with a new test container made from `base`, bound as `Container.current`, and closes the
/// container (disposing its instances newest first) when `body` returns.
///
/// For code that uses neither the ``IsolatedContainerTrait`` traits nor ``DITestCase``: a helper, a
/// benchmark, a test of another framework.
///
/// ```swift
/// let now = try withTestContainer { container in
///     try container.register(Clock.self) { _ in FixedClock() }
///     return try Container.current.resolve(Clock.self).now
/// }
/// ```
///
/// - Parameters:
///   - base: The container whose graph the test container copies; `Container.current` by default.
///   - body: Receives the test container.
/// - Returns: What `body` returns.
/// - Throws: What `body` throws, with its type.
public func withTestContainer<Result, Failure: Error>(
    from base: Container = Container.current,
    _ body: (Container) throws(Failure) -> Result
) throws(Failure) -> Result {
    let scope = TestScope.standalone(base: base)
    defer { scope.end() }
    return try withContainer(scope.container) { () throws(Failure) -> Result in
        try body(scope.container)
    }
}

/// Runs the `async` `body` with a new test container made from `base`, bound as `Container.current`, on the
/// caller's actor, and closes the container when `body` returns.
///
/// ```swift
/// let store = try await withTestContainer { container in
///     try container.registerAsync(Store.self, scope: .singleton) { _ in await Store.inMemory() }
///     return try await Container.current.resolveAsync(Store.self)
/// }
/// ```
///
/// - Parameters:
///   - base: The container whose graph the test container copies; `Container.current` by default.
///   - body: Receives the test container.
/// - Returns: What `body` returns.
/// - Throws: What `body` throws, with its type.
public nonisolated(nonsending) func withTestContainer<Result, Failure: Error>(
    from base: Container = Container.current,
    _ body: nonisolated(nonsending) (Container) async throws(Failure) -> Result
) async throws(Failure) -> Result {
    let scope = TestScope.standalone(base: base)
    defer { scope.end() }
    return try await withContainer(scope.container) { () async throws(Failure) -> Result in
        try await body(scope.container)
    }
}

extension TestScope {
    /// A scope for `withTestContainer`, named after the running Swift Testing test if there is one.
    static func standalone(base: Container) -> TestScope {
        if let test = Test.current { return TestScope(base: base, test: test) }
        return TestScope(base: base, testName: "withTestContainer")
    }
}
