import DICore

extension Container {
    /// Drops the instances of `scope` that this container holds, so that the next resolve builds new ones;
    /// those that are `Disposable` are disposed, newest first.
    ///
    /// ```swift
    /// try app.register(FeatureFlags.self, scope: .cached) { r in try FeatureFlags.load(r) }
    /// _ = try app.resolve(FeatureFlags.self)
    /// app.reset(.cached)                                  // the next resolve loads the flags again
    ///
    /// checkout.reset(.scoped, includingDescendants: true) // checkout's and its children's .scoped instances
    /// ```
    ///
    /// Only this container's instances are dropped (and, with `includingDescendants`, those of its
    /// descendants), never its parent's. What "this container's" means follows the lifetime table: the
    /// `.cached` and `.weak` instances of services registered here, the `.scoped` instances resolved from
    /// here (whoever registered them), the `.matching(tag)` instances held here because this container has
    /// the tag, and the instances of registrations made here that a custom scope keeps in its storage.
    /// A reset `.weak` instance stays alive for whoever holds it, but is no longer handed out.
    ///
    /// `.transient` and `.graph` keep nothing, and `.singleton` instances are never reset — register with
    /// `.cached` to be able to — so resetting those scopes drops nothing.
    ///
    /// A resolve that is building an instance while the reset runs may still hand out that instance (to its
    /// asker and to those waiting for the same build); the next resolve after the reset builds a new one. The
    /// container holds that instance apart and disposes it when it closes, or, for the built-in scopes, at the
    /// next reset of the scope. Scopes are told apart by name.
    ///
    /// - Parameters:
    ///   - scope: The lifetime whose instances to drop: `.cached`, `.scoped`, `.weak`, `.matching("…")` or a
    ///     custom scope.
    ///   - includingDescendants: Also reset the children of this container, and theirs.
    /// - Returns: How many instances were dropped.
    @discardableResult
    public func reset(_ scope: Scope, includingDescendants: Bool = false) -> Int {
        var values: [Any] = []
        var dropped = 0
        var pending = [self]
        while let container = pending.popLast() {
            dropped += container.resetOwnInstances(of: scope, into: &values)
            // A test container's views hold what it built from its base's ancestors: they are part of it.
            pending += container.testViews
            if includingDescendants { pending += container.children }
        }
        Container.dispose(values: values)
        return dropped
    }

    /// Drops what this container alone keeps for `scope`; appends the instances to dispose to `values`.
    private func resetOwnInstances(of scope: Scope, into values: inout [Any]) -> Int {
        guard case .lifetime(let lifetime) = scope.kind else { return 0 }
        if lifetime is CustomLifetime {
            var dropped = 0
            for registration in registry.all where registration.scope == scope {
                guard case .lifetime(let own) = registration.scope.kind else { continue }
                let released = own.release(registration, in: self)
                dropped += released.count
                values += released
            }
            return dropped
        }

        let before = values.count
        // Held instances and those of slots (in cells, never recorded as held, or whose resolve is finishing
        // right now), ordered by their builds, so that disposal runs newest first.
        var taken: [(build: Int, value: Any)] = []
        var seen = Set<ObjectIdentifier>()
        for instance in heldInstances where instance.registration.scope == scope {
            guard seen.insert(ObjectIdentifier(instance.registration)).inserted else { continue }
            for released in releaseHeld(of: instance.registration) {
                if let value = Container.take(released) { taken.append((released.build, value)) }
            }
        }
        var weakDropped = 0
        for (registration, slot) in slots.all where registration.scope == scope {
            switch slot.retention {
            case .strong:
                let build = slot.buildNumber
                if let box = slot.reset() { taken.append((build, registration.body.unbox(box))) }
            case .weak:
                if slot.current(registration) != nil { weakDropped += 1 }
                _ = slot.reset()
            }
        }
        values += taken.sorted { $0.build < $1.build }.map(\.value)
        return values.count - before + weakDropped
    }
}
