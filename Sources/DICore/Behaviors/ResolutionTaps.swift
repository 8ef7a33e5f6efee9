/// The taps attached in this process.
package enum ResolutionTaps {
    private static let installed = Lock<[any ResolutionTap]>([])

    /// Adds `tap` and sends `containers` to the slow path; pair with `remove(_:from:)`.
    package static func add(_ tap: any ResolutionTap, to containers: [Container]) {
        installed.withLock { $0.append(tap) }
        for container in containers { container.registry.tap(1) }
    }

    /// Removes `tap`; `containers` leave the slow path once no other tap watches them.
    package static func remove(_ tap: any ResolutionTap, from containers: [Container]) {
        for container in containers { container.registry.tap(-1) }
        installed.withLock { $0.removeAll { $0 === tap } }
    }

    static var all: [any ResolutionTap] { installed.withLock { $0 } }
}
