/// A service that releases resources when the container holding it is closed.
///
/// The container that holds an instance (the registering container for `.singleton`, the asking one for
/// `.scoped`, …) calls `dispose()` when it is closed, newest instance first, after closing its children;
/// and when the registration that built the instance is replaced.
///
/// ```swift
/// final class Database: Disposable, Sendable {
///     func dispose() { connection.close() }
/// }
/// try app.register(Database.self, scope: .singleton) { _ in Database() }
/// app.close()    // disposes the database
/// ```
public protocol Disposable {
    /// Releases what the instance holds. Called at most once by a container.
    func dispose()
}

extension Container {
    /// Closes the container: closes its children first, then disposes every instance it holds, newest first;
    /// afterwards it refuses to resolve (`containerClosed`) and to register.
    ///
    /// Closing twice does nothing more. The memory of a closed container's instances is released with the
    /// container itself.
    public func close() {
        guard !isClosed else { return }
        for child in children.reversed() { child.close() }
        registry.close()
        Self.dispose(releaseAllHeld())
    }

    /// Disposes the instances of `held` that are `Disposable`, newest first.
    package static func dispose(_ held: [HeldInstance]) {
        for instance in held.reversed() {
            guard let box = instance.slot.current(instance.registration) else { continue }
            if let disposable = instance.registration.erased.unbox(box) as? any Disposable {
                disposable.dispose()
            }
        }
    }
}
