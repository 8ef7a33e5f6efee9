extension Container {
    /// Adds a behaviour that is told about every later registration in this container and its descendants,
    /// and, if it is a `ResolutionBehavior`, about every resolution they make.
    ///
    /// ```swift
    /// app.addBehavior(RegistrationLog())
    /// try app.child(name: "checkout").register(Cart.self) { _ in Cart() }   // RegistrationLog is told
    /// ```
    ///
    /// Children inherit their ancestors' behaviours, including children created before the behaviour was
    /// added. A behaviour is never told about registrations made before it was added. There is no way to
    /// remove a behaviour; give a test its own container (or child) instead.
    ///
    /// - Parameter behavior: The observer. Adding a `ResolutionBehavior` turns off the lock-free resolve
    ///   fast path for this container and its descendants.
    public func addBehavior(_ behavior: some ContainerBehavior) {
        behaviors.append(behavior)
        if behavior is any ResolutionBehavior { observeResolutions() }
    }

    /// Sends this container and all its descendants to the slow resolve path, which reports resolutions.
    private func observeResolutions() {
        registry.observeResolutions()
        // A test container's views resolve as the test container does, and are observed with it.
        for child in children + testViews { child.observeResolutions() }
    }

    /// Called by `child(name:tags:)` once the child is in the list of children, so that a resolution
    /// behaviour added concurrently to an ancestor reaches it either through that list or through this check.
    @inline(__always)
    package func inheritBehaviors(from parent: Container) {
        if parent.registry.observesResolutions { registry.observeResolutions() }
    }

    /// The behaviours that observe this container: the root's first, this container's own last.
    package var effectiveBehaviors: [any ContainerBehavior] {
        guard BehaviorStore.anyAdded else { return [] }
        var result: [any ContainerBehavior] = []
        // A view of a test container has the test container's behaviours (see `TestContainerLink`).
        for container in testContainerOfView.ancestry.reversed() { result += container.behaviors.all }
        return result
    }

    /// Tells every behaviour about `registrations`, just applied to this container; no lock is held.
    ///
    /// Every behaviour is told about every registration even when some throw; the first failure is thrown
    /// afterwards, as `behaviorFailed`. `registrations` is evaluated only when a behaviour was ever added, so
    /// that registering one service builds no array for nobody.
    package func reportRegistered(
        _ registrations: @autoclosure () -> [Registration]
    ) throws(RegistrationError) {
        guard BehaviorStore.anyAdded else { return }
        let registrations = registrations()
        guard !registrations.isEmpty else { return }
        let behaviors = effectiveBehaviors
        guard !behaviors.isEmpty else { return }
        var failures: [(behavior: any ContainerBehavior, registration: Registration, error: any Error)] = []
        for registration in registrations {
            let info = RegistrationInfo(registration, in: self)
            for behavior in behaviors {
                do {
                    try behavior.didRegister(info, in: self)
                } catch {
                    failures.append((behavior, registration, error))
                }
            }
        }
        guard let first = failures.first else { return }
        let behaviorName = String(describing: type(of: first.behavior))
        let service = first.registration.displayName
        let others = failures.count > 1
            ? " \(failures.count - 1) more behaviour call(s) in this step failed too; only the first is reported."
            : ""
        throw RegistrationError(
            code: .behaviorFailed,
            service: service,
            container: name,
            location: first.registration.location,
            underlying: first.error,
            message: "The behaviour \(behaviorName) threw while observing the registration of \(service) in "
                + "\(name) (at \(first.registration.location)): \(first.error). The registration was applied "
                + "and stays in place, and every other behaviour was still told about it.\(others) Fix "
                + "\(behaviorName), or catch this error where \(behaviorName) only reports a problem."
        )
    }

    /// Tells every resolution behaviour that this container resolved `instance` through `registration`,
    /// which `owner` holds.
    ///
    /// Only called from the slow path, and only when the published table says someone observes.
    package func reportResolved(_ registration: Registration, heldBy owner: Container, instance: Any) {
        guard !BehaviorReporting.isReporting else { return }
        let observers = effectiveBehaviors.compactMap { $0 as? any ResolutionBehavior }
        guard !observers.isEmpty else { return }
        let info = RegistrationInfo(registration, in: owner)
        BehaviorReporting.$isReporting.withValue(true) {
            for observer in observers { observer.didResolve(info, instance: instance, in: self) }
        }
    }

    /// The engine's resolve when the published table asks for the slow path: the container is closed, or
    /// somebody observes resolutions.
    func resolveObserved<Service>(_ registration: Registration, from owner: Container, as type: Service.Type)
        throws -> Service
    {
        if isClosed { throw closedError(type, name: registration.key.name) }
        let value = registry.isTapped
            ? try resolveTapped(registration, from: owner, as: type)
            : try produce(registration, from: owner, as: type)
        reportResolved(registration, heldBy: owner, instance: value)
        return value
    }
}
