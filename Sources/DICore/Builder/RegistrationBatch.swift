import Synchronization

/// The registrations that assemblies make in one container during `apply(_:)`, held back until every
/// `assemble(into:)` has returned and then applied together, all or none.
///
/// The batch travels in a task-local, so only code running inside the `apply` call (and tasks it starts
/// while the batch is open) stages into it; other threads keep registering straight into the container.
/// Each staged registration is checked at once against the container and the batch, so a conflict throws
/// from the `register` call that caused it, inside `assemble(into:)`.
final class RegistrationBatch: Sendable {
    let container: Container
    let parent: RegistrationBatch?
    private let state = Lock(State())

    private struct State {
        var isOpen = true
        var registrations: [Registration] = []
        /// The assembly that staged each registration, for messages.
        var origins: [String] = []
        var staged: [RegistrationKey: Registration] = [:]
        /// The assembly whose `assemble(into:)` is running.
        var origin = ""
        /// Every assembly whose `assemble(into:)` started, in that order: their `loaded` hooks run after
        /// the batch is applied.
        var assemblies: [any Assembly] = []
    }

    /// A point to roll back to when a nested `apply` fails.
    struct Mark {
        let registrations: Int
        let assemblies: Int
        let origin: String
    }

    /// What a closed batch hands over to be applied.
    struct Contents {
        let registrations: [Registration]
        let origins: [String]
        let assemblies: [any Assembly]
    }

    @TaskLocal static var current: RegistrationBatch?

    /// How many batches are open; while none is, `add` skips the task-local read.
    private static let open = Atomic<Int>(0)

    init(container: Container, parent: RegistrationBatch?) {
        self.container = container
        self.parent = parent
    }

    /// Runs `body` with this batch as the active one for its container.
    func activate<R>(_ body: () -> R) -> R {
        Self.open.add(1, ordering: .relaxed)
        defer { Self.open.subtract(1, ordering: .relaxed) }
        return Self.$current.withValue(self, operation: body)
    }

    /// The open batch staging registrations for `container`, if this code runs inside its `apply`.
    @inline(__always)
    static func active(for container: Container) -> RegistrationBatch? {
        // Inlined: the check every registration makes, and the only part that runs while no batch is open.
        guard open.load(ordering: .relaxed) != 0 else { return nil }
        return opened(for: container)
    }

    /// `active(for:)` once some batch is open somewhere.
    private static func opened(for container: Container) -> RegistrationBatch? {
        var batch = current
        while let candidate = batch {
            if candidate.container === container { return candidate.isOpen ? candidate : nil }
            batch = candidate.parent
        }
        return nil
    }

    var isOpen: Bool { state.withLock { $0.isOpen } }

    /// The point to roll back to if what is staged from now on must be dropped.
    func mark() -> Mark {
        state.withLock { Self.mark(of: $0) }
    }

    private static func mark(of state: State) -> Mark {
        Mark(registrations: state.registrations.count, assemblies: state.assemblies.count, origin: state.origin)
    }

    /// Records that `assembly` starts assembling; returns the point to restore when it is done.
    func begin(_ assembly: any Assembly) -> Mark {
        state.withLock { state in
            let mark = Self.mark(of: state)
            state.assemblies.append(assembly)
            state.origin = String(describing: type(of: assembly))
            return mark
        }
    }

    /// Restores the assembly named in messages after a nested assembly finished.
    func end(_ mark: Mark) {
        state.withLock { $0.origin = mark.origin }
    }

    /// Forgets what was staged since `mark` (a nested `apply` that failed), keeping the rest.
    func rollBack(to mark: Mark) {
        state.withLock { state in
            state.registrations.removeSubrange(mark.registrations...)
            state.origins.removeSubrange(mark.registrations...)
            state.assemblies.removeSubrange(mark.assemblies...)
            state.origin = mark.origin
            state.staged = Dictionary(state.registrations.map { ($0.key, $0) }) { _, later in later }
        }
    }

    /// Checks `registrations` as `Container.add(all:)` would, against the container and what is already
    /// staged, and stages them. Returns `false`, staging nothing, when the batch is already closed.
    func stage(_ registrations: [Registration]) throws(RegistrationError) -> Bool {
        try state.withLock { state throws(RegistrationError) -> Bool in
            guard state.isOpen else { return false }
            if let first = registrations.first, container.isClosed {
                throw RegistrationError.closed(first, in: container)
            }
            var local: [RegistrationKey: Registration] = [:]
            for registration in registrations {
                let key = registration.key
                if case .lifetime(let lifetime) = registration.scope.kind {
                    try lifetime.validate(registration, in: container)
                }
                try container.checkAncestors(allow: registration)
                let existing = local[key] ?? state.staged[key] ?? container.registry.registration(for: key)
                try container.check(registration, replacing: existing)
                local[key] = registration
            }
            for registration in registrations {
                state.registrations.append(registration)
                state.origins.append(state.origin)
                state.staged[registration.key] = registration
            }
            return true
        }
    }

    /// Closes the batch (later registrations go straight to the container) and hands over its contents.
    func close() -> Contents {
        state.withLock { state in
            state.isOpen = false
            defer {
                state.registrations = []
                state.origins = []
                state.assemblies = []
                state.staged = [:]
            }
            return Contents(registrations: state.registrations, origins: state.origins, assemblies: state.assemblies)
        }
    }
}

extension Container {
    /// Stages `registrations` in the open `apply` batch of this container, if this code runs inside one.
    ///
    /// - Returns: `true` when the registrations were staged (and must not be added now). `registrations` is
    ///   evaluated only inside a batch.
    func staged(_ registrations: @autoclosure () -> [Registration]) throws(RegistrationError) -> Bool {
        guard let batch = RegistrationBatch.active(for: self) else { return false }
        return try batch.stage(registrations())
    }
}
