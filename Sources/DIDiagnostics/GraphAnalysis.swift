import DICore

/// Builds the graph model of a container tree and validates it in one pass over the registrations.
///
/// Nodes of the validation are (registration, container its dependencies come from) pairs, because the
/// same transient resolves differently from different children; kept instances (`singleton`, `cached`,
/// `weak`) always resolve where they are registered, so they appear once.
struct GraphAnalysis {
    let asked: Container
    /// Ancestors (root first), then the asked container and its descendants, depth first.
    let live: [Container]
    /// Index in `live` of the asked container.
    let askedIndex: Int
    var containers: [DependencyGraph.ContainerNode] = []
    var services: [DependencyGraph.ServiceNode] = []
    var registrations: [Registration] = []
    /// Per container: key → service index, for its own registrations.
    var keys: [[RegistrationKey: Int]] = []
    var serviceByRegistration: [ObjectIdentifier: Int] = [:]
    var dependencies: [[DependencyRef]] = []
    var findings: [Finding] = []
    var marks: [Int: [Finding.ID]] = [:]

    init(_ container: Container, observed: ObservedEdges = ObservedEdges()) {
        asked = container
        let ancestors = Array(container.ancestry.dropFirst().reversed())
        var subtree: [Container] = []
        var stack = [container]
        while let next = stack.popLast() {
            subtree.append(next)
            stack += next.children.reversed()
        }
        live = ancestors + subtree
        askedIndex = ancestors.count
        index(observed: observed)
    }

    /// Indexes containers and registrations and their dependencies.
    private mutating func index(observed: ObservedEdges) {
        var containerIndex: [ObjectIdentifier: Int] = [:]
        var ownerOf: [Int] = []
        for (i, container) in live.enumerated() {
            containerIndex[ObjectIdentifier(container)] = i
            let parent = container.parent.flatMap { containerIndex[ObjectIdentifier($0)] }
            containers.append(.init(
                name: container.name, tags: container.tags.sorted(), parent: parent, isAncestor: i < askedIndex
            ))
            if let parent { containers[parent].children.append(i) }
            var own: [RegistrationKey: Int] = [:]
            for registration in container.registry.all {
                let index = registrations.count
                registrations.append(registration)
                serviceByRegistration[ObjectIdentifier(registration)] = index
                own[registration.key] = index
                containers[i].services.append(index)
                ownerOf.append(i)
            }
            keys.append(own)
        }
        for (index, registration) in registrations.enumerated() {
            let container = ownerOf[index]
            var shadows: Int?
            var ancestor = containers[container].parent
            while let current = ancestor, shadows == nil {
                shadows = keys[current][registration.key]
                ancestor = containers[current].parent
            }
            var aliasOf: Int?
            var isAlias = false
            if let target = registration.aliasTarget {
                isAlias = true
                // The registration the alias's key names, seen from the alias's container.
                var current: Int? = container
                while let index = current, aliasOf == nil {
                    aliasOf = keys[index][target]
                    current = containers[index].parent
                }
            }
            let id = ObjectIdentifier(registration)
            var refs = registration.dependencies.map(DependencyRef.init)
            for ref in observed.dependencies[id] ?? [] where !refs.contains(where: { $0.key == ref.key }) {
                refs.append(ref)
            }
            dependencies.append(refs)
            services.append(.init(
                container: container,
                label: ServiceLabel(
                    type: registration.serviceType, name: registration.name, keyPathName: registration.keyPathName
                ),
                scope: registration.scope.name,
                location: registration.location,
                aliasOf: aliasOf,
                arguments: registration.argumentTypes.map { String(describing: $0) },
                isAsync: registration.isAsync,
                edgesKnown: isAlias || registration.declaresDependencies || observed.built.contains(id),
                shadows: shadows,
                implementation: observed.implementations[id].flatMap {
                    ObjectIdentifier($0) == ObjectIdentifier(registration.serviceType) ? nil : $0
                }
            ))
        }
    }

    /// The nearest service for `key` seen from container `from`, with its container.
    func lookup(_ key: RegistrationKey, from: Int) -> Int? {
        var current: Int? = from
        while let container = current {
            if let found = keys[container][key] { return found }
            current = containers[container].parent
        }
        return nil
    }

    /// The nearest registration of `key`'s type and name that takes runtime arguments, for an assisted
    /// `Provider<T, Argument>`: its dependency names `T` but not the argument types, so any argument list
    /// counts (the first registered when a container has several).
    func lookupAssisted(_ key: RegistrationKey, from: Int) -> Int? {
        var current: Int? = from
        while let container = current {
            let found = containers[container].services.first { service in
                let candidate = registrations[service].key
                return candidate.type == key.type && candidate.name == key.name && candidate.arguments != nil
                    && candidate.keyPath == 0
            }
            if let found { return found }
            current = containers[container].parent
        }
        return nil
    }

    /// Where `ref` resolves from container `from`: a service, `.absent` for a missing optional, or `.missing`.
    func resolve(_ ref: DependencyRef, from: Int) -> Resolution {
        if ref.kind == .assisted { return lookupAssisted(ref.key, from: from).map(Resolution.service) ?? .missing }
        if let found = lookup(ref.key, from: from) { return .service(found) }
        if let wrapped = ref.wrapped {
            if let found = lookup(wrapped.key, from: from) { return .service(found) }
            return .absent
        }
        return .missing
    }

    enum Resolution {
        case service(Int)
        case absent
        case missing
    }

    /// The container whose registrations a service's dependencies come from, when it is requested from
    /// `requestedFrom`; `nil` for a `.matching(tag)` service with no tagged container on the path.
    func context(of service: Int, requestedFrom: Int) -> Int? {
        let scope = services[service].scope
        switch scope {
        case "transient", "graph", "scoped":
            return requestedFrom
        default:
            if let tag = Self.matchingTag(scope) {
                var current: Int? = requestedFrom
                while let container = current {
                    if containers[container].tags.contains(tag) { return container }
                    current = containers[container].parent
                }
                return nil
            }
            return services[service].container
        }
    }

    /// `session` for the scope named `matching("session")`.
    static func matchingTag(_ scope: String) -> String? {
        guard scope.hasPrefix("matching(\""), scope.hasSuffix("\")") else { return nil }
        return String(scope.dropFirst(10).dropLast(2))
    }

    /// How long an instance of `scope` lives, for DI-CAPTIVE: 3 held by a long-lived container, 2 one per
    /// container, 1 per resolve, `nil` when unknown (custom scopes, `weak` as a holder).
    static func lifetimeRank(_ scope: String) -> Int? {
        switch scope {
        case "singleton", "cached": 3
        case "scoped": 2
        case "weak": 2
        case "transient", "graph": 1
        default: matchingTag(scope) != nil ? 2 : nil
        }
    }

    /// Whether a `holder` instance keeping a `dependency` instance makes it captive.
    static func isCaptive(holder: String, dependency: String) -> Bool {
        switch holder {
        case "singleton", "cached":
            return dependency == "weak" || (lifetimeRank(dependency) ?? 3) < 3
        case "scoped":
            return lifetimeRank(dependency) == 1
        default:
            if matchingTag(holder) != nil { return lifetimeRank(dependency) == 1 }
            return false
        }
    }

    func element(_ service: Int, in container: Int) -> PathElement {
        PathElement(registrations[service], requested: registrations[service].serviceType, in: live[container])
    }
}
