#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value guarded by a platform mutex, with a condition to wait on; the API of `Synchronization.Mutex`
/// plus `withLockAwaiting(_:)` and `broadcast()`.
///
/// DIToolkit uses this rather than `Mutex` because on Linux `Mutex` waits on a futex inside the standard
/// library, where ThreadSanitizer cannot see it, so every `swift test --sanitize=thread` run would report
/// its critical sections as races. `pthread_mutex_t` and `pthread_cond_t` are intercepted by the sanitizer.
///
/// The compiler cannot see that sharing its storage between threads is safe; `Unsafe.SendableReference` makes
/// that one claim, with the argument for it (`Unsafe`, "The `Sendable` claim").
///
/// Every pthread call is checked: a failure means memory corruption or a destroyed lock, and continuing
/// would hand out the state unguarded. Debug builds use an error-checking mutex, which reports a relock
/// by the owner or an unlock by another thread instead of deadlocking or corrupting silently.
package struct Lock<State: ~Copyable>: Sendable {
    /// The mutex, in the header of the one allocation that also holds the state, and the condition, in an
    /// allocation of its own made only for a lock made `awaitable`: every container makes a lock, and one lock
    /// in the process waits on a condition (inline, it would put 48 unused bytes between every container's
    /// mutex and its state).
    package struct Primitives {
        var mutex = pthread_mutex_t()
        var condition: UnsafeMutablePointer<pthread_cond_t>?
    }

    /// The mutex and the state, in one heap object (a `ManagedBuffer` keeps both at fixed addresses, which the
    /// pthread calls need): a lock costs one allocation, as `NIOLock` does (an awaitable one, a second).
    private final class Storage: ManagedBuffer<Primitives, State> {
        deinit {
            withUnsafeMutablePointers { primitives, state in
                if let condition = primitives.pointee.condition {
                    Lock.check(pthread_cond_destroy(condition), "pthread_cond_destroy")
                    condition.deallocate()
                }
                Lock.check(pthread_mutex_destroy(&primitives.pointee.mutex), "pthread_mutex_destroy")
                _ = state.deinitialize(count: 1)
            }
        }
    }

    /// Shared by every copy of the lock, on any thread (see `Unsafe`, "The `Sendable` claim").
    private let storage: Unsafe.SendableReference<Storage>

    /// Makes the lock; `awaitable` sets up the condition that `withLockAwaiting(_:)` and `broadcast()` use.
    package init(_ initialState: consuming sending State, awaitable: Bool = false) {
        let buffer = Storage.create(minimumCapacity: 1) { _ in Primitives() }
        let storage = unsafeDowncast(buffer, to: Storage.self)
        self.storage = Unsafe.SendableReference(storage)
        let (primitives, state) = storage.withUnsafeMutablePointers { ($0, $1) }
        state.initialize(to: initialState)
        #if DEBUG
        var attributes = pthread_mutexattr_t()
        Self.check(pthread_mutexattr_init(&attributes), "pthread_mutexattr_init")
        Self.check(pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK)), "pthread_mutexattr_settype")
        Self.check(pthread_mutex_init(&primitives.pointee.mutex, &attributes), "pthread_mutex_init")
        Self.check(pthread_mutexattr_destroy(&attributes), "pthread_mutexattr_destroy")
        #else
        Self.check(pthread_mutex_init(&primitives.pointee.mutex, nil), "pthread_mutex_init")
        #endif
        if awaitable {
            let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
            condition.initialize(to: pthread_cond_t())
            Self.check(pthread_cond_init(condition, nil), "pthread_cond_init")
            primitives.pointee.condition = condition
        }
    }

    /// The addresses of the primitives and the state: fixed for the life of `storage`, which `self` keeps.
    private var pointers: (primitives: UnsafeMutablePointer<Primitives>, state: UnsafeMutablePointer<State>) {
        storage.object.withUnsafeMutablePointers { ($0, $1) }
    }

    /// Runs `body` with exclusive access to the state.
    package func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending State) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        let (primitives, state) = pointers
        Self.check(pthread_mutex_lock(&primitives.pointee.mutex), "pthread_mutex_lock")
        defer { Self.check(pthread_mutex_unlock(&primitives.pointee.mutex), "pthread_mutex_unlock") }
        return try body(&state.pointee)
    }

    /// Runs `body` with exclusive access if nobody holds the lock; `nil` without running it otherwise.
    package func withLockIfAvailable<Result: ~Copyable, E: Error>(
        _ body: (inout sending State) throws(E) -> sending Result
    ) throws(E) -> sending Result? {
        let (primitives, state) = pointers
        let status = pthread_mutex_trylock(&primitives.pointee.mutex)
        guard status == 0 else {
            Self.check(status == EBUSY ? 0 : status, "pthread_mutex_trylock")
            return nil
        }
        defer { Self.check(pthread_mutex_unlock(&primitives.pointee.mutex), "pthread_mutex_unlock") }
        return try body(&state.pointee)
    }

    /// Runs `body` with exclusive access until it returns a result: while it returns `nil`, gives the lock
    /// up, sleeps until another thread calls `broadcast()`, and runs it again.
    package func withLockAwaiting<Result, E: Error>(
        _ body: (inout sending State) throws(E) -> sending Result?
    ) throws(E) -> sending Result {
        let (primitives, state) = pointers
        guard let condition = primitives.pointee.condition else {
            preconditionFailure("DIToolkit's lock: waiting on a lock not made awaitable.")
        }
        Self.check(pthread_mutex_lock(&primitives.pointee.mutex), "pthread_mutex_lock")
        defer { Self.check(pthread_mutex_unlock(&primitives.pointee.mutex), "pthread_mutex_unlock") }
        while true {
            if let result = try body(&state.pointee) { return result }
            Self.check(pthread_cond_wait(condition, &primitives.pointee.mutex), "pthread_cond_wait")
        }
    }

    /// Wakes every thread sleeping in `withLockAwaiting(_:)`, which then run their `body` again. Change
    /// the state they wait for under the lock first, so that no wake-up is lost.
    package func broadcast() {
        guard let condition = pointers.primitives.pointee.condition else {
            preconditionFailure("DIToolkit's lock: waking a lock not made awaitable.")
        }
        Self.check(pthread_cond_broadcast(condition), "pthread_cond_broadcast")
    }

    fileprivate static func check(_ status: Int32, _ call: StaticString) {
        precondition(status == 0, "DIToolkit's lock: \(call) failed with error \(status).")
    }
}
