import Synchronization

/// Gives every `ServiceKeys` key path a small integer id, the `keyPath` field of `RegistrationKey`.
///
/// Equal key paths (`\.clock` written in two files) get the same id. Hashing and comparing key paths
/// costs tens of nanoseconds and needs the lock, so the ids are also published by object identity in an
/// immutable snapshot that is read without a lock: the runtime instantiates a literal's key path once, so
/// a literal is found by identity after its first use. Every object recorded by identity is retained by the
/// interner, so its address cannot be reused by another key path; at most `identityLimit` objects are
/// recorded, after which key paths built at run time (which are new objects each time) take the locked path.
final class KeyPathInterner: Sendable {
    static let shared = KeyPathInterner()

    /// Beyond this many objects recorded by identity, lookups of new objects take the lock.
    static let identityLimit = 256

    /// An immutable map from key path object to id; readers use it without the lock.
    private final class Snapshot: Sendable {
        let ids: [ObjectIdentifier: Int]

        init(_ ids: [ObjectIdentifier: Int]) { self.ids = ids }
    }

    private struct State {
        var ids: [AnyKeyPath: Int] = [:]
        /// Every object recorded by identity, kept alive so that its address stays unique.
        var identities: [AnyKeyPath] = []
        var snapshot: Snapshot
        /// Snapshots a lock-free reader may still be reading; kept for the process's life.
        var retired: [Snapshot] = []
    }

    /// `state.snapshot`, read without the lock; replaced snapshots stay alive in `state.retired`.
    private let published: Unsafe.AtomicReference<Snapshot>
    private let state: Lock<State>

    private init() {
        let snapshot = Snapshot([:])
        published = Unsafe.AtomicReference(snapshot)
        state = Lock(State(snapshot: snapshot))
    }

    /// The id of `keyPath`, assigning the next one on first use; ids start at 1 (0 means "no key path").
    func id(for keyPath: any AnyKeyPath & Sendable) -> Int {
        let identity = ObjectIdentifier(keyPath)
        let known = published.load().unsafelyUnwrapped.with { $0.ids[identity] }
        if let known { return known }
        return state.withLock { state in
            let object = keyPath as AnyKeyPath
            let id: Int
            if let existing = state.ids[object] {
                id = existing
            } else {
                id = state.ids.count + 1
                state.ids[object] = id
            }
            if state.identities.count < Self.identityLimit && state.snapshot.ids[identity] == nil {
                state.identities.append(object)
                var ids = state.snapshot.ids
                ids[identity] = id
                let snapshot = Snapshot(ids)
                state.retired.append(state.snapshot)
                state.snapshot = snapshot
                published.exchange(snapshot)
            }
            return id
        }
    }
}
