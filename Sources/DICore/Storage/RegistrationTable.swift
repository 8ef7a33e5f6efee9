/// An immutable open-addressing hash table from `RegistrationKey` to `Registration`, read without a lock.
///
/// A container publishes a new table when registrations change (see `Registry`) and frees a replaced one
/// only once no read section can still see it (`TableReclamation`), so a reader that loaded an older table
/// never sees freed memory. Lookups hand out unowned references so the hot path does no reference counting.
@usableFromInline
package final class RegistrationTable: Sendable {
    /// Two words, so that a table of 100,000 registrations stays a few megabytes.
    @usableFromInline
    struct Bucket: Sendable {
        /// The key's `RegistrationKey.bucketWord`: for a key that is only a type (what most resolves ask for),
        /// the type itself, so that one compare decides a hit without reading the registration; for other
        /// keys, the hash, which a hit confirms by comparing the registration's key. `0` in an empty bucket.
        @usableFromInline let word: UInt
        /// The registration, kept alive by `registrations`; `nil` marks an empty bucket.
        @usableFromInline let registration: Unsafe.Unowned<Registration>?
    }

    @usableFromInline let buckets: [Bucket]
    @usableFromInline let mask: Int
    /// Every registration in the table, in registration order; also what keeps them alive.
    package let registrations: [Registration]
    /// Set once the container is closed: the fast path then falls to the slow path, which throws.
    @usableFromInline let isClosed: Bool
    /// Set while a `ResolutionBehavior` observes this container: the slow path reports resolutions.
    package let observesResolutions: Bool
    /// Set while a diagnostics tap (a trace, an edge recorder) watches this container.
    package let isTapped: Bool
    /// `isClosed || observesResolutions || isTapped`: the one flag the fast path checks to leave for the
    /// slow path.
    @usableFromInline package let needsSlowPath: Bool

    /// Set on the tables every container shares (`empty`, `closed`): they live for the process, so a registry
    /// publishes them without a retain and never retires them.
    let isShared: Bool

    package var count: Int { registrations.count }

    /// The table a new container starts with; shared, so that making a container builds no table.
    static let empty = RegistrationTable([], isShared: true)

    /// The closed tables, one per combination of the other flags: shared, so that closing builds no table.
    private static let closedTables = [false, true].flatMap { observes in
        [false, true].map { tapped in
            RegistrationTable([], isClosed: true, observesResolutions: observes, isTapped: tapped, isShared: true)
        }
    }

    /// Every shared table (for tests).
    package static var shared: [RegistrationTable] { [empty] + closedTables }

    /// The shared empty closed table with these flags, unretained (it lives for the process).
    static func closed(observesResolutions: Bool, isTapped: Bool) -> Unsafe.Unowned<RegistrationTable> {
        closedTables.withUnsafeBufferPointer { Unsafe.Unowned($0[(observesResolutions ? 2 : 0) + (isTapped ? 1 : 0)]) }
    }

    package init(
        _ registrations: [Registration],
        isClosed: Bool = false,
        observesResolutions: Bool = false,
        isTapped: Bool = false,
        isShared: Bool = false
    ) {
        self.isShared = isShared
        self.registrations = registrations
        self.isClosed = isClosed
        self.observesResolutions = observesResolutions
        self.isTapped = isTapped
        self.needsSlowPath = isClosed || observesResolutions || isTapped
        var capacity = 8
        while capacity < registrations.count * 2 { capacity <<= 1 }
        mask = capacity - 1
        let mask = mask
        self.buckets = [Bucket](unsafeUninitializedCapacity: capacity) { buckets, initialized in
            for index in 0..<capacity {
                (buckets.baseAddress! + index).initialize(to: Bucket(word: 0, registration: nil))
            }
            for registration in registrations {
                let key = registration.key
                let hash = key.tableHash
                var index = Int(truncatingIfNeeded: hash) & mask
                while buckets[index].registration != nil { index = (index &+ 1) & mask }
                buckets[index] = Bucket(word: key.bucketWord(hash: hash), registration: Unsafe.Unowned(registration))
            }
            initialized = capacity
        }
    }

    /// The registration stored under `key`, without retaining it (the table keeps it alive).
    @inlinable
    func find(_ key: RegistrationKey, hash: UInt) -> Unsafe.Unowned<Registration>? {
        let word = key.bucketWord(hash: hash)
        return buckets.withUnsafeBufferPointer { buckets in
            var index = Int(truncatingIfNeeded: hash) & mask
            while true {
                let bucket = buckets[index]
                if bucket.word == 0 { return nil }
                // Equal words are equal keys when the word is the type; otherwise equal hashes, to confirm.
                if bucket.word == word {
                    let registration = bucket.registration.unsafelyUnwrapped
                    if key.isTypeOnly || registration.with({ $0.key == key }) { return registration }
                }
                index = (index &+ 1) & mask
            }
        }
    }

    /// The registration stored under `key`, retained; for slow paths.
    package func registration(for key: RegistrationKey) -> Registration? {
        find(key, hash: key.tableHash)?.object
    }
}
