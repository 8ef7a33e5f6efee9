extension Container {
    /// The process's default root container: what ``current`` is where nobody bound another one.
    ///
    /// ```swift
    /// try Container.shared.register(Logger.self, scope: .singleton) { _ in ConsoleLogger() }
    /// let logger = try Container.current.resolve(Logger.self)    // Container.shared, unless bound
    /// ```
    ///
    /// An app that prefers its own root binds it for the whole program with `withContainer(_:operation:)`
    /// around its entry point, or registers into `Container.shared`.
    public static let shared = Container(name: "shared")

    /// The ambient container: bound for a task and everything it calls with `withContainer(_:operation:)`
    /// (or `Container.$current.withValue`), ``shared`` where nothing is bound.
    ///
    /// ```swift
    /// try await withContainer(checkout) {
    ///     let model = CheckoutModel()          // its @Inject properties resolve from checkout
    ///     try await model.load()
    /// }
    /// try await Container.$current.withValue(checkout) { … }    // the same, spelled as a task-local
    /// ```
    ///
    /// It is a task-local value, so it follows structured concurrency: child tasks (`async let`, task
    /// groups) and `Task { }` created inside the binding inherit it. `Task.detached`, GCD queues and threads
    /// you start yourself do **not** inherit it; capture the container and bind it again there:
    ///
    /// ```swift
    /// let container = Container.current
    /// Task.detached { await withContainer(container) { await refresh() } }
    /// DispatchQueue.global().async { withContainer(container) { render() } }
    /// ```
    ///
    /// Property wrappers read it when they resolve, with one exception: inside a factory that a container is
    /// running, they resolve from the container that factory's dependencies come from (the registering
    /// container for a `.singleton`, the asking one for a `.transient`), exactly as the factory's own
    /// `Resolver` argument does, so that a parent's singleton never captures a binding made for one test.
    @TaskLocal public static var current: Container = .shared

    /// The container property wrappers resolve from right now: inside a factory running on this thread or
    /// task, the container its dependencies come from; elsewhere ``current``.
    @usableFromInline
    package static var ambient: Container { ambientReference.object }

    /// ``ambient`` without a retain, for the wrappers that resolve at once (`@Inject`): it is kept alive by
    /// what made it ambient (the factory's build, the async resolution, the `current` binding, or
    /// ``shared``), all of which outlast the caller's synchronous use.
    ///
    /// The binding is read in place rather than through `current`: the same lookup, without `current`'s copy
    /// of the container (a retain and a release per property, which the side table of a child container
    /// makes several times dearer than the lookup).
    @usableFromInline
    package static var ambientReference: Unsafe.Unowned<Container> {
        // Held by the build under way on this thread (the caller of `enterBuild` keeps it).
        if let resolving = ResolutionStack.innermostContainer { return resolving }
        // Held by the async resolution node, which the task's binding keeps.
        if let resolving = AsyncResolution.currentIfActive?.container { return Unsafe.Unowned(resolving) }
        return Unsafe.boundObject(of: $current) ?? Unsafe.Unowned(shared)
    }
}

/// Runs `operation` with `container` as the ambient container (``Container/current``), and returns its
/// result.
///
/// ```swift
/// let model = withContainer(checkout) { CheckoutModel() }     // @Inject resolves from checkout
/// ```
///
/// The binding ends when `operation` returns; bindings nest, the innermost winning. Child tasks created
/// inside inherit it; detached tasks and GCD work do not (capture the container and bind it again there).
///
/// - Parameters:
///   - container: The container to make ambient.
///   - operation: The code that sees `container` as ``Container/current``.
/// - Returns: What `operation` returns.
/// - Throws: What `operation` throws, with its type.
@inlinable
public func withContainer<Result, Failure: Error>(
    _ container: Container,
    operation: () throws(Failure) -> Result
) throws(Failure) -> Result {
    do {
        return try Container.$current.withValue(container, operation: operation)
    } catch {
        // `TaskLocal.withValue` rethrows as `any Error`; the error can only be `operation`'s.
        throw error as! Failure
    }
}

/// Runs the `async` `operation` with `container` as the ambient container (``Container/current``), on the
/// caller's actor, and returns its result.
///
/// ```swift
/// try await withContainer(checkout) {
///     let model = CheckoutModel()
///     try await model.load()
/// }
/// ```
///
/// `operation` runs on the caller's isolation (it is `nonisolated(nonsending)`), so a `@MainActor` caller
/// can touch main-actor state inside it without `await`. Child tasks created inside inherit the binding;
/// detached tasks and GCD work do not.
///
/// - Parameters:
///   - container: The container to make ambient.
///   - operation: The code that sees `container` as ``Container/current``.
/// - Returns: What `operation` returns.
/// - Throws: What `operation` throws, with its type.
@inlinable
public nonisolated(nonsending) func withContainer<Result, Failure: Error>(
    _ container: Container,
    operation: nonisolated(nonsending) () async throws(Failure) -> Result
) async throws(Failure) -> Result {
    do {
        return try await Container.$current.withValue(container, operation: operation)
    } catch {
        // `TaskLocal.withValue` rethrows as `any Error`; the error can only be `operation`'s.
        throw error as! Failure
    }
}
