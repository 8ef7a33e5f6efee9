import Synchronization

/// The taps attached in this process.
package enum ResolutionTaps {
    private static let installed = Lock<[any ResolutionTap]>([])
    /// How many taps are attached: read, without the lock, by the resolves that only a tap would have to report.
    private static let count = Atomic<Int>(0)

    /// Adds `tap` and sends `containers` to the slow path; pair with `remove(_:from:)`.
    package static func add(_ tap: any ResolutionTap, to containers: [Container]) {
        installed.withLock { $0.append(tap) }
        count.add(1, ordering: .relaxed)
        for container in containers { container.registry.tap(1) }
    }

    /// Removes `tap`; `containers` leave the slow path once no other tap watches them.
    package static func remove(_ tap: any ResolutionTap, from containers: [Container]) {
        for container in containers { container.registry.tap(-1) }
        count.subtract(1, ordering: .relaxed)
        installed.withLock { $0.removeAll { $0 === tap } }
    }

    static var all: [any ResolutionTap] { installed.withLock { $0 } }

    /// Whether any tap is attached; when none is, no container is tapped. (A container tapped since this was
    /// read is tapped by a diagnostic that began meanwhile, which sees what follows.)
    static var anyInstalled: Bool { count.load(ordering: .relaxed) > 0 }
}
