#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CDIThreadLocal

/// When a registration table that lock-free readers may still be reading can be freed.
///
/// Every read of a published table happens inside a *read section* (`enter()` … `leave(_:)`). A thread
/// counts its sections in a thread-local word: even while it reads no table, odd while it does. Sections nest
/// (a factory that resolves runs inside the section of the resolve that called it); only the outermost one
/// counts.
///
/// A container that replaced tables asks `activeReaders()` for the threads reading right now, after a
/// process-wide barrier (see `CDIThreadLocal.h`): a thread that was not reading then will load the new table,
/// and a thread that was may still read an old one until its count moves on (`haveMovedOn(_:)`). The barrier
/// is on the freeing side so that entering a section costs a reader a thread-local load, a test and a store,
/// and no fence.
///
/// A thread joins the list of readers on its first section and leaves it when it exits.
@usableFromInline
package enum TableReclamation {
    /// Starts a read section; pass the result to `leave(_:)`.
    @inlinable @inline(__always)
    package static func enter() -> UInt {
        var count = c_di_read_count_get()
        if _slowPath(count == 0) { count = registerThread() }
        c_di_read_begin(count)
        return count
    }

    /// Ends a read section started by `enter()`; the inner one of nested sections leaves the count as it was.
    @inlinable @inline(__always)
    package static func leave(_ count: UInt) {
        c_di_read_end(count)
    }

    /// Runs `body` inside a read section.
    @inlinable @inline(__always)
    package static func reading<R>(_ body: () throws -> R) rethrows -> R {
        let count = enter()
        defer { leave(count) }
        return try body()
    }

    /// The threads inside a read section right now, each with its count; tables replaced before this call
    /// are unreachable once every one of them has moved on.
    package struct Readers: Sendable {
        fileprivate let counts: [(word: UInt, count: UInt)]

        package var isEmpty: Bool { counts.isEmpty }
    }

    /// The threads reading right now, seen after a process-wide barrier (none is needed while the calling
    /// thread is the only one that ever read a table).
    package static func activeReaders() -> Readers {
        readers.withLock { readers in
            if !isCallerAlone(readers) { c_di_process_barrier() }
            return active(readers)
        }
    }

    /// The threads reading right now when that is known without a barrier, because no thread but the caller
    /// ever read a table; `nil` otherwise.
    ///
    /// The caller's own count needs no barrier, and a thread that starts reading later joins the list under
    /// the same lock first, so it loads whatever the caller published before asking.
    package static func activeReadersWithoutBarrier() -> Readers? {
        readers.withLock { readers in isCallerAlone(readers) ? active(readers) : nil }
    }

    private static func isCallerAlone(_ readers: Registry) -> Bool {
        let own = c_di_read_count_address()
        return readers.words.allSatisfy { $0 == own }
    }

    private static func active(_ readers: Registry) -> Readers {
        var active: [(word: UInt, count: UInt)] = []
        for word in readers.words {
            let count = c_di_read_count_at(word)
            if count & 1 == 1 { active.append((word, count)) }
        }
        return Readers(counts: active)
    }

    /// Whether every thread of `readers` has left the section it was in (or exited).
    package static func haveMovedOn(_ active: Readers) -> Bool {
        guard !active.isEmpty else { return true }
        return readers.withLock { readers in
            active.counts.allSatisfy { reader in
                // An exited thread's word is no longer listed, and may not be read.
                !readers.words.contains(reader.word)
                    || c_di_read_count_at(reader.word) != reader.count
            }
        }
    }

    /// The addresses of the registered threads' counts (thread-local storage, valid while listed).
    ///
    /// Addresses as integers: the list only compares them and hands them back to C while the lock is held,
    /// and the thread that owns a word removes it, under the same lock, before the word is freed.
    private struct Registry {
        var words: [UInt] = []
        var key: pthread_key_t?
    }

    private static let readers = Lock(Registry())

    /// Adds this thread to the readers and arranges for it to leave when it exits; returns its count.
    @usableFromInline @inline(never)
    static func registerThread() -> UInt {
        readers.withLock { readers in
            let word = c_di_read_count_address()
            if readers.key == nil {
                var key = pthread_key_t()
                let status = pthread_key_create(&key) { _ in TableReclamation.unregisterThread() }
                precondition(status == 0, "DIToolkit could not create its thread-exit key (\(status)).")
                readers.key = key
            }
            readers.words.append(word)
            c_di_read_count_watch_exit(readers.key!)
            // The first even count: 0 is kept for "not registered".
            c_di_read_count_set(2)
            return 2
        }
    }

    private static func unregisterThread() {
        readers.withLock { readers in
            let word = c_di_read_count_address()
            readers.words.removeAll { $0 == word }
            c_di_read_count_set(0)
        }
    }
}
