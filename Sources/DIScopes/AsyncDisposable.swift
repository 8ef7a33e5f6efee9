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
///
/// As with `Disposable`, the conformance cannot be isolated to an actor (`SendableMetatype`); the `dispose()`
/// itself may be, and is awaited there.
public protocol AsyncDisposable: SendableMetatype {
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
    /// container refuses to resolve (`containerClosed`) and to register. Closing twice does nothing more. An
    /// `async` resolve whose build ends after the close disposes its instance the same way, awaiting an
    /// `AsyncDisposable`'s `dispose()`, and throws `containerClosed`.
    public func closeAsync() async {
        // An instance whose `async` build ends after this close is then disposed as this close disposes.
        if Self.lateAsyncDisposal.isEmpty { Self.lateAsyncDisposal.storeIfEmpty(Self.asyncDisposer) }
        guard let closing = markClosed() else { return }
        for child in closing.children.reversed() { await child.closeAsync() }
        for value in releaseOwnInstances(closing).reversed() { await Self.disposeAsync(value) }
        // A test container's views, after its own instances (see `close()`).
        if testing != nil { for view in closeTestViews() { await view.closeAsync() } }
    }

    /// Disposes of `value` as `closeAsync()` does: awaits its `dispose()` when it is `AsyncDisposable`, calls
    /// the synchronous one when it is only `Disposable`.
    @inline(__always)
    private static func disposeAsync(_ value: Any) async {
        // Awaited only when there is something to await: an `async` call per instance would allocate a frame in
        // the task for each.
        let disposal = asyncDisposals.disposal(of: value)
        if let disposable = disposal.async {
            await dispose(value, as: disposable)
        } else if let disposable = disposal.sync {
            dispose(value, as: disposable)
        }
    }

    /// `disposeAsync(_:)`, for the instances an `async` build hands to a container that closed meanwhile.
    private static let asyncDisposer = AsyncDisposer { value in await disposeAsync(value) }

    /// Awaits the `dispose()` of `value`, an instance of `Instance`, as `dispose(_:)` calls a `Disposable`'s.
    private static func dispose<Instance: AsyncDisposable>(_ value: Any, as type: Instance.Type) async {
        await Unsafe.cast(value, to: Instance.self).dispose()
    }

    /// How each type's instances are disposed of by `closeAsync()`: `AsyncDisposable` first, as it says. Releasing
    /// an instance then costs no conformance lookup.
    static let asyncDisposals = DisposalMemo<AsyncDisposal> { value in
        AsyncDisposal(
            async: (value as? any AsyncDisposable).map { type(of: $0) },
            sync: (value as? any Disposable).map { type(of: $0) }
        )
    }
}

/// How `closeAsync()` disposes of the instances of a type: the type as an `AsyncDisposable`, as a `Disposable`.
struct AsyncDisposal: Sendable {
    let async: (any AsyncDisposable.Type)?
    let sync: (any Disposable.Type)?
}
