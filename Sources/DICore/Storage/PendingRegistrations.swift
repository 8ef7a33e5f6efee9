/// Registrations added since a container last published its table: an open-addressing index on the same
/// cheap hash as `RegistrationTable`, kept in insertion order. A few entries are scanned instead, so that a
/// container that registers two or three (one per request) builds no index.
///
/// A `Dictionary` would hash every key with SipHash on each insert and again on every resize, which was most
/// of the cost of registering 100,000 services; and publishing would have to sort its values back into
/// registration order.
struct PendingRegistrations {
    /// The first registration, while it is the only one: a request's container registers one value (its
    /// request's) and then needs no array at all. Moved into `several` when a second comes.
    private var single: Registration?
    /// Two or more, with their index once there are many; `nil` until a second comes, so that the pending
    /// registrations of a container that has at most one (a request's) set up and release no array.
    private var several: Several?
    private(set) var count = 0

    /// The arrays of two or more pending registrations.
    private struct Several {
        /// In insertion order; `nil` where a later registration of the same key replaced the entry.
        var ordered: [Registration?] = []
        /// The `tableHash` of each entry of `ordered`, so that probing compares keys only on a hash match;
        /// kept only once there is an index (`buckets`): a scan compares keys, whose first field (the type)
        /// tells almost all apart, and a container with a few then makes one array, not two.
        var hashes: [UInt] = []
        /// Indices into `ordered`, `-1` for an empty bucket; capacity a power of two, at most half full.
        var buckets: [Int32] = []

        /// The position in `ordered` of the live entry for `key`, found by a scan (while there is no index).
        func linearPosition(of key: RegistrationKey) -> Int? {
            for position in ordered.indices {
                if let registration = ordered[position], registration.key == key { return position }
            }
            return nil
        }

        /// The bucket holding `key`, or the empty bucket where it would go; `nil` while there are no buckets.
        func bucket(of key: RegistrationKey, hash: UInt) -> Int? {
            guard !buckets.isEmpty else { return nil }
            let mask = buckets.count - 1
            var index = Int(truncatingIfNeeded: hash) & mask
            while buckets[index] >= 0 {
                let position = Int(buckets[index])
                if hashes[position] == hash, ordered[position]?.key == key { return index }
                index = (index &+ 1) & mask
            }
            return index
        }

        mutating func grow() {
            // The first index: the entries scanned so far get their hashes (`0` for a replaced one, never read).
            if buckets.isEmpty { hashes = ordered.map { $0?.key.tableHash ?? 0 } }
            // `-1` marks an empty bucket; 16 buckets (8 registrations) before the first doubling.
            buckets = [Int32](repeating: -1, count: max(16, buckets.count * 2))
            let mask = buckets.count - 1
            for position in ordered.indices where ordered[position] != nil {
                var index = Int(truncatingIfNeeded: hashes[position]) & mask
                while buckets[index] >= 0 { index = (index &+ 1) & mask }
                buckets[index] = Int32(position)
            }
        }

        /// The entry for `key`.
        subscript(key: RegistrationKey) -> Registration? {
            if buckets.isEmpty { return linearPosition(of: key).flatMap { ordered[$0] } }
            guard let bucket = bucket(of: key, hash: key.tableHash), buckets[bucket] >= 0 else { return nil }
            return ordered[Int(buckets[bucket])]
        }

        /// Adds `registration`, replacing an entry of the same key; returns the replaced one.
        mutating func insert(_ registration: Registration) -> Registration? {
            if buckets.isEmpty, ordered.count < PendingRegistrations.linearLimit {
                var replaced: Registration?
                if let position = linearPosition(of: registration.key) {
                    replaced = ordered[position]
                    ordered[position] = nil
                }
                ordered.append(registration)
                return replaced
            }
            let hash = registration.key.tableHash
            // Open addressing stays fast while at most half the buckets are used.
            if (ordered.count + 1) * 2 > buckets.count { grow() }
            let bucket = bucket(of: registration.key, hash: hash)!
            var replaced: Registration?
            if buckets[bucket] >= 0 {
                replaced = ordered[Int(buckets[bucket])]
                ordered[Int(buckets[bucket])] = nil
            }
            buckets[bucket] = Int32(ordered.count)
            ordered.append(registration)
            hashes.append(hash)
            return replaced
        }

        /// Empties the entries, keeping the arrays' capacity and the index's size.
        mutating func removeAll() {
            ordered.removeAll(keepingCapacity: true)
            hashes.removeAll(keepingCapacity: true)
            for index in buckets.indices { buckets[index] = -1 }
        }
    }

    var isEmpty: Bool { count == 0 }

    /// Up to this many entries (a request's container registers two or three) are found by a linear scan of
    /// `ordered`, with no index to build.
    static let linearLimit = 8

    /// The pending registration for `key`.
    subscript(key: RegistrationKey) -> Registration? {
        if let single { return single.key == key ? single : nil }
        return several?[key]
    }

    /// Adds `registration`, replacing a pending one of the same key; returns the replaced one.
    @discardableResult
    mutating func insert(_ registration: Registration) -> Registration? {
        if count == 0, several == nil {
            single = registration
            count = 1
            return nil
        }
        if several == nil { several = Several() }
        if let first = single {
            single = nil
            several!.ordered.append(first)
        }
        let replaced = several!.insert(registration)
        if replaced == nil { count += 1 }
        return replaced
    }

    /// The pending registrations, oldest first.
    var inOrder: [Registration] { single.map { [$0] } ?? several?.ordered.compactMap { $0 } ?? [] }

    /// Calls `body` with each pending registration, oldest first, without building an array.
    func forEach(_ body: (Registration) -> Void) {
        if let single { body(single) }
        for registration in several?.ordered ?? [] {
            if let registration { body(registration) }
        }
    }

    mutating func removeAll() {
        single = nil
        several?.removeAll()
        count = 0
    }
}
