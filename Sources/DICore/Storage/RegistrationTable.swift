/// An immutable open-addressing hash table from `RegistrationKey` to `Registration`, read without a lock.
///
/// A container publishes a new table when registrations change (see `Registry`) and keeps every table it
/// ever published alive until it is itself released, so a reader that loaded an older table can never see
/// freed memory. Lookups hand out `Unmanaged` references so the hot path does no reference counting.
@usableFromInline
package final class RegistrationTable: Sendable {
    @usableFromInline
    struct Entry: Sendable {
        @usableFromInline let hash: UInt
        @usableFromInline let key: RegistrationKey
        /// `Unmanaged<Registration>` bits; `0` marks an empty bucket.
        @usableFromInline let handle: UInt
    }

    @usableFromInline let buckets: [Entry]
    @usableFromInline let mask: Int
    /// Every registration in the table, in registration order; also what keeps them alive.
    package let registrations: [Registration]
    /// Set once the container is closed: the fast path then falls to the slow path, which throws.
    @usableFromInline let isClosed: Bool
    /// Set while a `ResolutionBehavior` observes this container: the slow path reports resolutions.
    package let observesResolutions: Bool
    /// `isClosed || observesResolutions`: the one flag the fast path checks to leave for the slow path.
    @usableFromInline package let needsSlowPath: Bool

    package var count: Int { registrations.count }

    package init(_ registrations: [Registration], isClosed: Bool = false, observesResolutions: Bool = false) {
        self.registrations = registrations
        self.isClosed = isClosed
        self.observesResolutions = observesResolutions
        self.needsSlowPath = isClosed || observesResolutions
        var capacity = 8
        while capacity < registrations.count * 2 { capacity <<= 1 }
        mask = capacity - 1
        let empty = Entry(hash: 0, key: RegistrationKey(type: ObjectIdentifier(Never.self), name: nil), handle: 0)
        var buckets = [Entry](repeating: empty, count: capacity)
        for registration in registrations {
            let hash = registration.key.tableHash
            var index = Int(truncatingIfNeeded: hash) & mask
            while buckets[index].handle != 0 { index = (index &+ 1) & mask }
            buckets[index] = Entry(
                hash: hash,
                key: registration.key,
                handle: UInt(bitPattern: Unmanaged.passUnretained(registration).toOpaque())
            )
        }
        self.buckets = buckets
    }

    /// The registration stored under `key`, without retaining it (the table keeps it alive).
    @inlinable
    func find(_ key: RegistrationKey, hash: UInt) -> Unmanaged<Registration>? {
        buckets.withUnsafeBufferPointer { buckets in
            var index = Int(truncatingIfNeeded: hash) & mask
            while true {
                let handle = buckets[index].handle
                if handle == 0 { return nil }
                if buckets[index].hash == hash && buckets[index].key == key {
                    return Unmanaged<Registration>.fromOpaque(UnsafeRawPointer(bitPattern: handle)!)
                }
                index = (index &+ 1) & mask
            }
        }
    }

    /// The registration stored under `key`, retained; for slow paths.
    package func registration(for key: RegistrationKey) -> Registration? {
        find(key, hash: key.tableHash)?.takeUnretainedValue()
    }
}
