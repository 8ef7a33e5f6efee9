
/// Exercises `storage` the way a container will, and returns the rules of ``InstanceStorage`` it broke.
///
/// Call it from a test of your storage:
///
/// ```swift
/// @Test func userStorageFollowsTheRules() async {
///     let violations = await checkInstanceStorage(UserStorage())
///     #expect(violations.isEmpty, "\(violations)")
/// }
/// ```
///
/// It checks that an empty storage answers `nil`; that it returns the very instance stored under a key;
/// that two keys of the same service in the same container stay apart (`keysAreDistinct` — a storage keyed
/// by type name breaks it); that a second store replaces the first; that ``InstanceStorage/release(_:)``
/// returns the instance, forgets it and keeps no reference to it, and returns `nil` for a key with nothing
/// stored; and that many tasks storing, reading and releasing at once each see their own instances. It uses
/// keys of its own, which no registration can have, and releases them before it returns.
///
/// - Parameter storage: The storage to check; it may already hold instances of real registrations.
/// - Returns: The violations found, empty when the storage follows every rule.
public func checkInstanceStorage(_ storage: any InstanceStorage) async -> [InstanceStorageViolation] {
    var check = StorageCheck(storage: storage)
    check.run()
    await check.runConcurrently()
    return check.violations
}

/// An instance stored by the check; a class, so that identity and release can be observed.
private final class Probe: Sendable {
    let number: Int
    init(_ number: Int) { self.number = number }
}

private struct StorageCheck {
    let storage: any InstanceStorage
    var violations: [InstanceStorageViolation] = []

    init(storage: any InstanceStorage) {
        self.storage = storage
    }

    private mutating func fail(_ rule: String, _ message: String) {
        violations.append(InstanceStorageViolation(rule: rule, message: message))
    }

    private static func key(_ service: String = "Probe") -> InstanceKey {
        InstanceKey(probe: service, container: "checkInstanceStorage")
    }

    private func read(_ key: InstanceKey) -> Probe? {
        storage.instance(for: key)?.value as? Probe
    }

    private func store(_ probe: Probe, _ key: InstanceKey) {
        storage.store(StoredInstance(probe: probe, key: key), for: key)
    }

    mutating func run() {
        let empty = Self.key()
        if let found = storage.instance(for: empty) {
            fail(
                "emptyStorageHasNothing",
                "instance(for:) returned \(found) for \(empty), under which nothing was stored."
            )
        }

        let key = Self.key()
        let probe = Probe(1)
        store(probe, key)
        let read = storage.instance(for: key)
        if read.map({ $0.value as? Probe }) ?? nil !== probe {
            fail("readsWhatWasStored", "After store(_:for: \(key)), instance(for:) returned "
                + "\(read.map { "\($0)" } ?? "nil") instead of the instance just stored.")
        } else if let read, read.key != key {
            fail("readsWhatWasStored", "instance(for: \(key)) returned an instance stored for \(read.key).")
        }

        // Same service name, same container: only the registration tells them apart.
        let first = Self.key("Twin"), second = Self.key("Twin")
        let firstProbe = Probe(2), secondProbe = Probe(3)
        store(firstProbe, first)
        if let leaked = storage.instance(for: second) {
            fail("keysAreDistinct", "An instance stored under one key of Twin was returned for another key of "
                + "Twin (\(leaked)); keys of the same service are different registrations and never share an "
                + "instance. Key the storage by InstanceKey itself, not by its service or container.")
        }
        store(secondProbe, second)
        if self.read(first) !== firstProbe || self.read(second) !== secondProbe {
            fail("keysAreDistinct", "Storing under a second key of Twin changed what the first key returns, or "
                + "the second key does not return its own instance.")
        }

        let replaced = Probe(4)
        store(replaced, key)
        if self.read(key) !== replaced {
            fail("storeReplaces", "A second store(_:for: \(key)) did not replace the first instance.")
        }

        let released = storage.release(key)
        if released.map({ $0.value as? Probe }) ?? nil !== replaced {
            fail("releaseReturnsTheInstance", "release(\(key)) returned \(released.map { "\($0)" } ?? "nil") "
                + "instead of the instance stored under it, so the container cannot dispose it.")
        }
        if let still = storage.instance(for: key) {
            fail("releaseForgets", "After release(\(key)), instance(for:) still returned \(still).")
        }

        let missing = Self.key()
        if let found = storage.release(missing) {
            fail("releaseOfMissingKeyIsNil", "release(\(missing)) returned \(found), though nothing was stored.")
        }
        if self.read(first) !== firstProbe {
            fail("releaseOfMissingKeyIsNil", "Releasing a key with nothing stored changed what another key returns.")
        }
        _ = storage.release(first)
        _ = storage.release(second)

        if let message = releasedProbeIsFreed() {
            fail("releaseDropsTheInstance", message)
        }
    }

    /// Stores and releases a probe that only the storage references, then checks that it is gone.
    private func releasedProbeIsFreed() -> String? {
        let key = Self.key()
        weak var observed: Probe?
        do {
            let probe = Probe(5)
            observed = probe
            store(probe, key)
        }
        _ = storage.release(key)
        guard observed != nil else { return nil }
        return "After release(\(key)) the instance is still alive: the storage keeps a reference to it, so a "
            + "released instance is never freed."
    }

    mutating func runConcurrently() async {
        let storage = storage
        let shared = Self.key("Shared")
        let sharedProbe = Probe(6)
        storage.store(StoredInstance(probe: sharedProbe, key: shared), for: shared)

        let failures = await withTaskGroup(of: [String].self) { group in
            for task in 0..<8 {
                group.addTask {
                    var failures: [String] = []
                    for round in 0..<200 {
                        let key = Self.key("Task\(task)")
                        let probe = Probe(task * 1_000 + round)
                        storage.store(StoredInstance(probe: probe, key: key), for: key)
                        if storage.instance(for: key)?.value as? Probe !== probe {
                            failures.append("a task did not read back the instance it had just stored under \(key)")
                        }
                        if storage.instance(for: shared)?.value as? Probe !== sharedProbe {
                            failures.append("a task lost the instance stored under \(shared) while others wrote")
                        }
                        if storage.release(key)?.value as? Probe !== probe {
                            failures.append("a task's release(\(key)) did not return its own instance")
                        }
                    }
                    return failures
                }
            }
            var all: [String] = []
            for await failures in group { all += failures }
            return all
        }
        _ = storage.release(shared)
        if let first = failures.first {
            fail("concurrentAccess", "With 8 tasks storing, reading and releasing at once, \(failures.count) "
                + "operations went wrong; the first: \(first). Guard the storage's state with a lock.")
        }
    }
}
