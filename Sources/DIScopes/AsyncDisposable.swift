import DICore

/// A service whose clean-up is asynchronous (closing a connection pool, flushing a file), disposed by
/// ``DICore/Container/closeAsync()``.
///
/// ```swift
/// final class ConnectionPool: AsyncDisposable, Sendable {
///     func dispose() async { await pool.drain() }
/// }
/// try app.register(ConnectionPool.self, scope: .singleton) { _ in ConnectionPool() }
/// await app.closeAsync()    // awaits the pool's dispose()
/// ```
///
/// Only `closeAsync()` awaits it. The synchronous `close()`, `reset(_:includingDescendants:)` and a new
/// registration of the key cannot wait, so they drop an `AsyncDisposable` without disposing it; a type that
/// conforms to `Disposable` as well gets its synchronous `dispose()` from those and its `async` one from
/// `closeAsync()`.
public protocol AsyncDisposable {
    /// Releases what the instance holds. Called at most once by a container.
    func dispose() async
}

extension Container {
    /// Closes the container as `close()` does — its children first, then every instance it holds, newest
    /// first — and awaits the `dispose()` of each ``AsyncDisposable`` one.
    ///
    /// ```swift
    /// await app.closeAsync()
    /// ```
    ///
    /// Instances that are only `Disposable` are disposed as `close()` disposes them. Afterwards the
    /// container refuses to resolve (`containerClosed`) and to register. Closing twice does nothing more.
    public func closeAsync() async {
        guard let registrations = markClosed() else { return }
        for child in children.reversed() { await child.closeAsync() }
        for value in releaseOwnInstances(of: registrations).reversed() {
            if Self.asyncDisposables.passes(value), let disposable = value as? any AsyncDisposable {
                await disposable.dispose()
            } else if Self.disposables.passes(value), let disposable = value as? any Disposable {
                disposable.dispose()
            }
        }
    }

    /// Which types are `AsyncDisposable`, so that releasing an instance of one that is not costs no cast.
    static let asyncDisposables = ConformanceMemo { $0 is any AsyncDisposable }
}
