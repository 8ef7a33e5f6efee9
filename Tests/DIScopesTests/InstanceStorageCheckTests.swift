import DICore
import DIScopes
import Testing

/// Storages that each break one rule, to show that `checkInstanceStorage` finds it.
enum BrokenStorage: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case keyedByServiceName, forgetful, firstStoreWins, releaseReturnsNil, releaseKeepsIt, keepsACopy

    var testDescription: String { rawValue }

    /// The rule `checkInstanceStorage` must report.
    var brokenRule: String {
        switch self {
        case .keyedByServiceName: "keysAreDistinct"
        case .forgetful: "readsWhatWasStored"
        case .firstStoreWins: "storeReplaces"
        case .releaseReturnsNil: "releaseReturnsTheInstance"
        case .releaseKeepsIt: "releaseForgets"
        case .keepsACopy: "releaseDropsTheInstance"
        }
    }

    func make() -> any InstanceStorage {
        switch self {
        case .keyedByServiceName: ServiceNameKeyedStorage()
        case .forgetful: Faulty(store: { _, _, _ in })
        case .firstStoreWins: Faulty(store: { dictionary, instance, key in
            if dictionary[key] == nil { dictionary[key] = instance }
        })
        case .releaseReturnsNil: Faulty(release: { dictionary, key in
            dictionary[key] = nil
            return nil
        })
        case .releaseKeepsIt: Faulty(release: { dictionary, key in dictionary[key] })
        case .keepsACopy: Faulty(keepsReleased: true)
        }
    }

    /// A dictionary storage whose operations can be replaced one at a time.
    final class Faulty: InstanceStorage {
        typealias Store = @Sendable (inout [InstanceKey: StoredInstance], StoredInstance, InstanceKey) -> Void
        typealias Release = @Sendable (inout [InstanceKey: StoredInstance], InstanceKey) -> StoredInstance?

        private let state = Lock<(instances: [InstanceKey: StoredInstance], archive: [StoredInstance])>(([:], []))
        private let storeBody: Store
        private let releaseBody: Release
        private let keepsReleased: Bool

        init(
            store: @escaping Store = { $0[$2] = $1 },
            release: @escaping Release = { $0.removeValue(forKey: $1) },
            keepsReleased: Bool = false
        ) {
            storeBody = store
            releaseBody = release
            self.keepsReleased = keepsReleased
        }

        func instance(for key: InstanceKey) -> StoredInstance? { state.withLock { $0.instances[key] } }

        func store(_ instance: StoredInstance, for key: InstanceKey) {
            state.withLock { storeBody(&$0.instances, instance, key) }
        }

        func release(_ key: InstanceKey) -> StoredInstance? {
            state.withLock { state in
                let released = releaseBody(&state.instances, key)
                if keepsReleased, let released { state.archive.append(released) }
                return released
            }
        }
    }
}

/// `checkInstanceStorage` drives each storage from 8 tasks at once: a storage that deadlocks fails by the time
/// limit instead of blocking the run.
@Suite(.timeLimit(.minutes(1))) struct InstanceStorageCheckTests {
    @Test func theStoragesThatShipFollowEveryRule() async {
        let dictionary = await checkInstanceStorage(DictionaryStorage())
        #expect(dictionary.isEmpty, "\(dictionary)")
        let composite = await checkInstanceStorage(CompositeStorage(DictionaryStorage(), DictionaryStorage()))
        #expect(composite.isEmpty, "\(composite)")
    }

    @Test(arguments: BrokenStorage.allCases)
    func aBrokenRuleIsReported(storage: BrokenStorage) async {
        let violations = await checkInstanceStorage(storage.make())
        #expect(violations.map(\.rule).contains(storage.brokenRule), "\(violations)")
        #expect(violations.allSatisfy { !$0.message.isEmpty && $0.description.hasPrefix($0.rule + ": ") })
    }

    @Test func aStorageKeyedByServiceNameIsToldWhatToKeyBy() async {
        let violations = await checkInstanceStorage(ServiceNameKeyedStorage())
        let violation = violations.first { $0.rule == "keysAreDistinct" }
        #expect(violation?.message.contains("Key the storage by InstanceKey itself") == true)
    }

    @Test func theCheckLeavesNothingBehindInTheStorage() async {
        let storage = DictionaryStorage()
        _ = await checkInstanceStorage(storage)
        #expect(storage.count == 0)
    }
}
