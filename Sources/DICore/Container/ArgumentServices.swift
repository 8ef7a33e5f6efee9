import Synchronization

/// The service types ever registered with runtime arguments, so that a failed lookup of any other type
/// (the usual case) does not scan registrations to tell `notRegistered` from `argumentMismatch`.
///
/// Types are never removed: a type stays in the set after its registration is replaced, which only costs
/// that type's failed lookups a scan. The set is bounded by the number of types in the program.
enum ArgumentServices {
    private static let count = Atomic<Int>(0)
    private static let types = Lock<Set<ObjectIdentifier>>([])

    static func insert(_ type: ObjectIdentifier) {
        let inserted = types.withLock { $0.insert(type).inserted }
        if inserted { count.add(1, ordering: .releasing) }
    }

    /// Whether `type` may have a registration with arguments somewhere.
    static func mayContain(_ type: ObjectIdentifier) -> Bool {
        if count.load(ordering: .acquiring) == 0 { return false }
        return types.withLock { $0.contains(type) }
    }
}
