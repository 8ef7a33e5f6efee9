#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value guarded by a platform mutex; the API of `Synchronization.Mutex`.
///
/// DIToolkit uses this rather than `Mutex` because on Linux `Mutex` waits on a futex inside the standard
/// library, where ThreadSanitizer cannot see it, so every `swift test --sanitize=thread` run would report
/// its critical sections as races. `pthread_mutex_t` is intercepted by the sanitizer.
///
/// Its sendability is unchecked, the one such type in DIToolkit, and this is why that is sound: `state` is
/// only read or written between `pthread_mutex_lock` and `pthread_mutex_unlock` of the same mutex, and, as
/// with `Mutex`, values enter and leave only as `sending`, so no non-Sendable value is shared through it.
package final class Lock<State: ~Copyable>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var state: State

    package init(_ initialState: consuming sending State) {
        state = initialState
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the state.
    package func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending State) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }

    /// Runs `body` with exclusive access if nobody holds the lock; `nil` without running it otherwise.
    package func withLockIfAvailable<Result: ~Copyable, E: Error>(
        _ body: (inout sending State) throws(E) -> sending Result
    ) throws(E) -> sending Result? {
        guard pthread_mutex_trylock(mutex) == 0 else { return nil }
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}
