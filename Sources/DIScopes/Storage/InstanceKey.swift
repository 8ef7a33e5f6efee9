import DICore
import Synchronization

/// Identifies the instance of one registration in a custom scope's ``InstanceStorage``.
///
/// Keys are made by the container, one per registration: two registrations of the same type (two names,
/// or the same key registered in two containers) have different keys and never share an instance. Two
/// keys are equal only when they stand for the same registration; ``service`` and ``container`` are there
/// for messages.
///
/// ```swift
/// func store(_ instance: StoredInstance, for key: InstanceKey) {
///     log("keeping \(key)")          // "keeping Logger "primary" in app"
///     instances.withLock { $0[key] = instance }
/// }
/// ```
public struct InstanceKey: Hashable, Sendable, CustomStringConvertible {
    /// The service as people write it, for messages; not an identity.
    ///
    /// ```swift
    /// key.service   // Logger "primary"
    /// ```
    public let service: String
    /// The name of the container the service is registered in, for messages; not an identity.
    ///
    /// ```swift
    /// key.container   // app
    /// ```
    public let container: String
    /// The registration's sequence number: unique for the process's life, never reused.
    let id: Int

    init(_ registration: Registration, in container: Container) {
        service = registration.displayName
        self.container = container.name
        id = registration.sequence
    }

    /// A key for ``checkInstanceStorage(_:)``; negative ids never collide with registrations.
    init(probe service: String, container: String) {
        self.service = service
        self.container = container
        id = -Self.probes.add(1, ordering: .relaxed).newValue
    }

    private static let probes = Atomic<Int>(0)

    /// The service and its container, for logs.
    ///
    /// ```swift
    /// print(key)   // Logger "primary" in app
    /// ```
    public var description: String { "\(service) in \(container)" }

    /// Whether both keys stand for the same registration (their texts may be equal for different ones).
    ///
    /// ```swift
    /// storage.instance(for: key)?.key == key   // always true for a storage that follows the rules
    /// ```
    public static func == (lhs: InstanceKey, rhs: InstanceKey) -> Bool { lhs.id == rhs.id }

    /// Hashes the registration identity, so that keys can index a dictionary.
    ///
    /// ```swift
    /// var instances: [InstanceKey: StoredInstance] = [:]
    /// ```
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
