#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CDIThreadLocal

/// When a registration table that lock-free readers may still be reading can be freed: epoch-based
/// reclamation, with the fence on the freeing side.
///
/// Every read of a published table happens inside a *read section* (`enter()` … `leave(_:)`): the thread
/// announces in a thread-local word the epoch at which it started reading. A container that publishes a
/// new table stamps the old one with the current epoch and advances the epoch (`retireStamp()`); later it
/// asks `oldestReader()` and frees every retired table stamped below it. Sections nest (a factory that
/// resolves runs inside the section of the resolve that called it), and only the outermost one announces.
///
/// A reader's announcement is a plain store: `oldestReader()` first runs a process-wide barrier (Linux
/// `membarrier`), after which every reader has either made its announcement visible or will load the new
/// table. So the resolve fast path pays a thread-local load, a compare and two stores, and no fence. Where
/// the system has no such barrier, readers fence instead (see `CDIThreadLocal.h`).
///
/// A thread joins the list of readers on its first section and leaves it when it exits.
@usableFromInline
package enum TableReclamation {
    /// Starts a read section; pass the result to `leave(_:)`.
    @inlinable @inline(__always)
    package static func enter() -> UInt {
        let saved = c_di_reader_state()
        if saved < 2 {
            if saved == 0 { registerThread() }
            c_di_reader_enter()
        }
        return saved
    }

    /// Ends a read section started by `enter()`.
    @inlinable @inline(__always)
    package static func leave(_ saved: UInt) {
        if saved < 2 { c_di_reader_leave(1) }
    }

    /// Runs `body` inside a read section.
    @inlinable @inline(__always)
    package static func reading<R>(_ body: () throws -> R) rethrows -> R {
        let saved = enter()
        defer { leave(saved) }
        return try body()
    }

    /// Stamps a table that was just replaced: tables stamped below `oldestReader()` are unreachable.
    package static func retireStamp() -> UInt {
        c_di_epoch_advance()
    }

    /// The epoch of the oldest read section still running on any thread; `UInt.max` when none is.
    package static func oldestReader() -> UInt {
        c_di_process_barrier()
        return readers.withLock { readers in
            var oldest = UInt.max
            for word in readers.words {
                let state = c_di_reader_state_at(word)
                if state >= 2 { oldest = min(oldest, state) }
            }
            return oldest
        }
    }

    /// The words of the registered threads; a word is only read while its thread is in this list.
    private struct Readers {
        var words: [UnsafeMutablePointer<UInt>] = []
        var key: pthread_key_t?
    }

    // The words are thread-local storage of their threads, never freed while listed; `Lock` guards the list.
    private static let readers = Lock(Readers())

    /// Adds this thread to the readers (its word becomes 1) and arranges for it to leave when it exits.
    @usableFromInline @inline(never)
    static func registerThread() {
        readers.withLock { readers in
            let word = c_di_reader_epoch_address()
            if readers.key == nil {
                c_di_process_barrier_setup()
                var key = pthread_key_t()
                let status = pthread_key_create(&key) { _ in TableReclamation.unregisterThread() }
                precondition(status == 0, "DIToolkit could not create its thread-exit key (\(status)).")
                readers.key = key
            }
            readers.words.append(word)
            // Any non-nil value, so that the key's destructor runs when the thread exits.
            pthread_setspecific(readers.key!, UnsafeRawPointer(word))
            c_di_reader_leave(1)
        }
    }

    private static func unregisterThread() {
        readers.withLock { readers in
            let word = c_di_reader_epoch_address()
            readers.words.removeAll { $0 == word }
            c_di_reader_leave(0)
        }
    }
}
