/// Registrations added since a container last published its table: an open-addressing index on the same
/// cheap hash as `RegistrationTable`, kept in insertion order. A few entries are scanned instead, so that a
/// container that registers two or three (one per request) builds no index.
///
/// A `Dictionary` would hash every key with SipHash on each insert and again on every resize, which was most
/// of the cost of registering 100,000 services; and publishing would have to sort its values back into
/// registration order.
struct PendingRegistrations {
    /// One pending registration and its key's `tableHash`, so that probing compares keys only on a hash
    /// match. Kept together in one array: a request's container allocates one buffer for its few values.
    private struct Entry {
        /// `nil` where a later registration of the same key replaced the entry.
        var registration: Registration?
        let hash: UInt
    }

    /// In insertion order.
    private var entries: [Entry] = []
    /// Indices into `entries`, `-1` for an empty bucket; capacity a power of two, at most half full.
    private var buckets: [Int32] = []
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// Up to this many entries (a request's container registers two or three) are found by a linear scan,
    /// with no index to build.
    static let linearLimit = 8

    /// The pending registration for `key`.
    subscript(key: RegistrationKey) -> Registration? {
        if buckets.isEmpty {
            return linearPosition(of: key, hash: key.tableHash).flatMap { entries[$0].registration }
        }
        guard let bucket = bucket(of: key, hash: key.tableHash), buckets[bucket] >= 0 else { return nil }
        return entries[Int(buckets[bucket])].registration
    }

    /// Adds `registration`, replacing a pending one of the same key; returns the replaced one.
    @discardableResult
    mutating func insert(_ registration: Registration) -> Registration? {
        let hash = registration.key.tableHash
        if buckets.isEmpty, entries.count < Self.linearLimit {
            var replaced: Registration?
            if let position = linearPosition(of: registration.key, hash: hash) {
                replaced = entries[position].registration
                entries[position].registration = nil
            } else {
                count += 1
            }
            // Room for a request's few values in the first allocation.
            if entries.isEmpty { entries.reserveCapacity(4) }
            entries.append(Entry(registration: registration, hash: hash))
            return replaced
        }
        // Open addressing stays fast while at most half the buckets are used.
        if (entries.count + 1) * 2 > buckets.count { grow() }
        let bucket = bucket(of: registration.key, hash: hash)!
        var replaced: Registration?
        if buckets[bucket] >= 0 {
            replaced = entries[Int(buckets[bucket])].registration
            entries[Int(buckets[bucket])].registration = nil
        } else {
            count += 1
        }
        buckets[bucket] = Int32(entries.count)
        entries.append(Entry(registration: registration, hash: hash))
        return replaced
    }

    /// The position in `entries` of the live entry for `key`, found by a scan (while there is no index).
    private func linearPosition(of key: RegistrationKey, hash: UInt) -> Int? {
        entries.indices.first { entries[$0].hash == hash && entries[$0].registration?.key == key }
    }

    /// The pending registrations, oldest first.
    var inOrder: [Registration] { entries.compactMap(\.registration) }

    /// Calls `body` with each pending registration, oldest first, without building an array.
    func forEach(_ body: (Registration) -> Void) {
        for entry in entries {
            if let registration = entry.registration { body(registration) }
        }
    }

    mutating func removeAll() {
        entries.removeAll(keepingCapacity: true)
        for index in buckets.indices { buckets[index] = -1 }
        count = 0
    }

    /// The bucket holding `key`, or the empty bucket where it would go; `nil` while there are no buckets.
    private func bucket(of key: RegistrationKey, hash: UInt) -> Int? {
        guard !buckets.isEmpty else { return nil }
        let mask = buckets.count - 1
        var index = Int(truncatingIfNeeded: hash) & mask
        while buckets[index] >= 0 {
            let position = Int(buckets[index])
            if entries[position].hash == hash, entries[position].registration?.key == key { return index }
            index = (index &+ 1) & mask
        }
        return index
    }

    private mutating func grow() {
        // `-1` marks an empty bucket; 16 buckets (8 registrations) before the first doubling.
        buckets = [Int32](repeating: -1, count: max(16, buckets.count * 2))
        let mask = buckets.count - 1
        for position in entries.indices where entries[position].registration != nil {
            var index = Int(truncatingIfNeeded: entries[position].hash) & mask
            while buckets[index] >= 0 { index = (index &+ 1) & mask }
            buckets[index] = Int32(position)
        }
    }
}
