/// The slow path of resolution: what the fast path in `Container+Resolution.swift` hands over — lookups through
/// pending registrations and test containers, lifetimes, aliases, builds on the thread's resolution stack.
/// The errors it throws are made in `Container+Failures.swift`.
extension Container {
    /// The registration for `key` in the nearest container, with the container that resolves it: where it is
    /// registered, or, for what a test container resolves through its base, the test container or its view of
    /// that level.
    package func lookup(_ key: RegistrationKey) -> (Registration, Container)? {
        var result: (Registration, Container)?
        // Walked unowned (see `nearest(_:)`): a request's container looks up its ancestors' services here.
        _ = nearest { container in
            if let found = container.registry.registration(for: key) {
                result = (found, container)
            } else if container.testing != nil {
                result = container.lookupThroughBase(key)
            }
            return result != nil
        }
        return result
    }

    /// Resolves `key` looking at unpublished registrations too, or fails with the full diagnostic.
    @usableFromInline
    func resolveLookingEverywhere<Service>(_ key: RegistrationKey, as type: Service.Type) throws -> Service {
        if isClosed { throw closedError(type, name: key.name) }
        if let (registration, owner) = lookup(key) {
            return try resolveFound(registration, in: owner, as: type)
        }
        // One conformance check for `Optional<T>` and the relationship types (each check costs a cache lookup
        // in the runtime).
        if let implicit = type as? any ImplicitService.Type {
            if ResolutionTaps.anyInstalled, registry.isTapped { reportImplicit(type, name: key.name) }
            return try implicit.resolveImplicitly(from: self, name: key.name) as! Service
        }
        throw missing(key, type)
    }

    /// Resolves a registration a lookup found in `owner`: a built synchronous singleton is read as the fast
    /// path reads it, unless something asks for more (a closed or observed container, where the slow path
    /// reports or refuses; a registration a test container found in its base chain, where it builds its own
    /// copy); anything else goes through its lifetime.
    ///
    /// A container with pending registrations (a request's, with its own values) sends resolves of its
    /// ancestors' services here. Out of line, so that its caller's frame holds no optional of `Service` (whose
    /// metadata a failed lookup would otherwise ask the runtime for).
    @usableFromInline @inline(never)
    func resolveFound<Service>(_ registration: Registration, in owner: Container, as type: Service.Type) throws
        -> Service
    {
        // A registration publishes a box only when its own slot built its singleton, or when it is a value.
        if owner.testing == nil, !registry.needsSlowPath, let box = registration.builtSingleton.load() {
            return InstanceBox.value(in: box)
        }
        return try resolve(registration, from: owner, as: type)
    }

    /// Resolves a registration found in `owner` for a request made to this container.
    @usableFromInline
    func resolve<Service>(_ registration: Registration, from owner: Container, as type: Service.Type) throws
        -> Service
    {
        // One load of the published table, as the closed check alone cost: closed and observed containers
        // share the flag.
        if registry.needsSlowPath { return try resolveObserved(registration, from: owner, as: type) }
        return try produce(registration, from: owner, as: type)
    }

    /// Resolves a registration found in `owner`, without the closed check and without reporting.
    func produce<Service>(_ registration: Registration, from owner: Container, as type: Service.Type) throws
        -> Service
    {
        switch registration.kind {
        case .factory:
            if registration.shortcut == .transient { return try buildTransient(registration, as: type) }
            let box = try instanceBox(of: registration, from: owner, requested: type)
            return unsafeDowncast(box, to: InstanceBox<Service>.self).value
        case .alias(let key):
            let (target, targetOwner) = try aliasTarget(of: registration, key: key, in: owner, as: type)
            // An async or argument-taking target fails here as it would when asked for directly, built or not.
            guard case .factory = target.kind else { return try produce(target, from: targetOwner, as: type) }
            let box = try instanceBox(of: target, from: targetOwner, requested: type)
            return try cast(target.body.unbox(box), through: registration, target: target)
        case .asyncFactory:
            throw owner.asyncResolutionRequired(registration, requested: type)
        case .arguments:
            throw owner.argumentsRequired(registration, requested: type)
        }
    }

    /// The boxed instance of a synchronous registration, placed by its lifetime.
    package func instanceBox(of registration: Registration, from owner: Container, requested: Any.Type) throws
        -> AnyObject
    {
        // A value (`register(_:value:)`) is published from the start and has no slot: nothing to place, build
        // or hold, in a test container or an observed one too.
        if registration.singleton == nil, let value = registration.builtSingleton.load() { return value.object }
        let resolution = ResolutionScope.currentThread
        // Borrowed by every build below: the caller keeps the registration alive for this call.
        let builder = Unsafe.Unowned(registration)
        do {
            switch try placement(of: registration, from: owner, resolution: resolution) {
            case .build(let dependencies):
                return try Self.build(builder, in: dependencies, requested: requested)
            case .slot(let slot, let container):
                let (box, built) = try slot.instance(of: registration, resolution: resolution, holder: container) {
                    try Self.build(builder, in: container, requested: requested)
                }
                if built { try container.with { try $0.hold(slot, of: registration, requested: requested) } }
                return box
            case .provided(let provider, let dependencies):
                return try provider.instance(of: registration, resolution: resolution) {
                    try Self.build(builder, in: dependencies, requested: requested)
                }
            }
        } catch let error as ResolutionError {
            let error = error.asked(as: requested, of: registration)
            guard ResolutionStack.current.isOutermost else { throw error }
            // The request made to this container failed: its error says where it started.
            throw error.requested(from: self)
        }
    }

    /// How many aliases of aliases a resolve follows before it reports the alias as broken.
    package static let maximumAliasHops = 16

    /// The registration an alias stands for, found from the container that holds the alias, with the
    /// container that holds it; follows an alias of an alias.
    func aliasTarget(of alias: Registration, key: RegistrationKey, in owner: Container, as type: Any.Type) throws
        -> (Registration, Container)
    {
        var key = key
        var container = owner
        // Aliases of aliases are followed this many times at most, so that a loop of aliases (re-registered
        // into one) fails instead of spinning.
        for _ in 0..<Self.maximumAliasHops {
            guard let (target, targetOwner) = container.lookup(key) else { break }
            guard case .alias(let next) = target.kind else { return (target, targetOwner) }
            key = next
            container = targetOwner
        }
        // The target's container closing meanwhile took its registrations away: refused, not missing.
        if container.isClosedOnItsPath { throw container.closedError(type, name: alias.key.name) }
        throw ResolutionError(
            code: .notRegistered,
            requestedType: type,
            name: alias.key.name,
            path: ResolutionStack.current.path(then: PathElement(alias, requested: type, in: owner)),
            searchedContainers: owner.ancestry.map(\.name),
            detail: "It is an alias (made with .implements at \(alias.location)) of "
                + "\(ServiceName.describe(alias.aliasedType ?? Never.self, name: key.name)), which is no longer "
                + "registered in \(owner.name) or its ancestors (or aliases lead to aliases more than "
                + "\(Self.maximumAliasHops) times). "
                + "Register the service again, or register \(ServiceName.readable(type)) directly."
        )
    }

    /// The registration that builds the instances of `registration` when it is found in this container, with
    /// the container that holds it: itself, or, for an alias, the registration its target key names now;
    /// `nil` when an alias names nothing any more.
    package func builder(of registration: Registration) -> (registration: Registration, owner: Container)? {
        guard let key = registration.aliasTarget else { return (registration, self) }
        return try? aliasTarget(of: registration, key: key, in: self, as: registration.serviceType)
    }

    /// The instance of an alias's target as the alias type, or `typeMismatch` when it does not conform.
    func cast<Service>(_ value: Any, through alias: Registration, target: Registration) throws -> Service {
        guard let cast = unsafeDowncast(alias.body, to: AliasBox<Service>.self).cast(value) else {
            throw aliasMismatch(alias, target: target, value: value)
        }
        return cast
    }

    /// Where the instance of `registration` (found in `owner`) comes from for a request to this container:
    /// DICore's own lifetimes and those of `DIScopes` answer in the same terms, so the synchronous and the
    /// async path each switch over the answer once.
    func placement(of registration: Registration, from owner: Container, resolution: ResolutionScope) throws
        -> LifetimePlacement
    {
        // One instance per nearest container with a tag, asked of a container with that tag: it is the nearest,
        // and holds the instance in its own slot, as the lifetime would decide (a request's container, asked
        // for its request-scoped services). Unless it does not see the registering container (a test
        // container, asked for its base's services), where the lifetime reports that.
        if let tag = registration.holderTag, isTagged(tag), testing == nil, sees(owner) {
            return .slot(slots.slot(for: registration), in: Unsafe.Unowned(self))
        }
        switch registration.scope.kind {
        case .transient:
            return .build(dependencies: Unsafe.Unowned(self))
        case .singleton:
            let unowned = Unsafe.Unowned(owner)
            guard let slot = registration.singleton else { return .build(dependencies: unowned) }
            // A registration's own slot is its registering container's instance; a test container keeps its own.
            if owner.testing != nil {
                return .slot(owner.testSlot(for: registration), in: unowned)
            }
            return .slot(slot, in: unowned)
        case .lifetime(let lifetime):
            return try lifetime.placement(
                for: registration, registeredIn: owner, requestedFrom: self, resolution: resolution
            )
        }
    }

    /// `build(_:dependencies:requested:)` with the registration and the container borrowed: what a slot or a
    /// provider runs when it builds. Where that closure captured the registration itself, the optimiser
    /// retained it twice per build, and the registration is shared by every request that builds its service.
    @inline(never)
    static func build(
        _ registration: Unsafe.Unowned<Registration>,
        in container: Unsafe.Unowned<Container>,
        requested: Any.Type
    ) throws -> AnyObject {
        try container.with { container in
            try registration.with { try container.build($0, dependencies: container, requested: requested) }
        }
    }

    /// Runs the factory of `registration` with `dependencies` as its resolver, on the thread's active path.
    func build(_ registration: Registration, dependencies: Container, requested: Any.Type) throws -> AnyObject {
        let body = registration.body
        guard body.buildsSynchronously else { throw asyncResolutionRequired(registration, requested: requested) }
        let stack = try dependencies.enterBuild(registration, requested: requested)
        defer { stack.with { $0.leave() } }
        do {
            return try body.makeBox(dependencies)
        } catch {
            throw stack.with { $0.failure(error) }
        }
    }
}
