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
            switch Disposal(rawValue: Self.disposals.answer(for: value)) {
            case .async: await (value as? any AsyncDisposable)?.dispose()
            case .sync: (value as? any Disposable)?.dispose()
            case .notDisposable, nil: break
            }
        }
    }

    /// How each type's instances are disposed of, so that releasing one that is neither `AsyncDisposable`
    /// nor `Disposable` costs no cast, and one that is costs one.
    static let disposals = ConformanceMemo { value in
        (value is any AsyncDisposable ? Disposal.async : value is any Disposable ? .sync : .notDisposable).rawValue
    }
}

/// How `closeAsync()` disposes of a released instance: `AsyncDisposable` first, as it says.
enum Disposal: UInt8, Sendable {
    case async
    case sync
    case notDisposable
}
