import DICore

/// Builds the graph model of a container tree and validates it in one pass over the registrations.
///
/// Nodes of the validation are (registration, container its dependencies come from) pairs, because the
/// same transient resolves differently from different children; kept instances (`singleton`, `cached`,
/// `weak`) always resolve where they are registered, so they appear once.
///
/// Validation runs at start-up over graphs of thousands of registrations, so the model is kept in flat
/// arrays indexed by number: each key is hashed once, when the graph is indexed, and every lookup after
/// that follows integers.
struct GraphAnalysis {
    let asked: Container
    /// Ancestors (root first), then the asked container and its descendants, depth first.
    let live: [Container]
    /// Index in `live` of the asked container.
    let askedIndex: Int
    var containers: [DependencyGraph.ContainerNode] = []
    var services: [DependencyGraph.ServiceNode] = []
    var registrations: [Registration] = []
    /// Per service: the container that registers it (`services[i].container`, kept apart for fast walks).
    var owner: [Int] = []
    /// Per service: the container a kept instance of it resolves its dependencies from: its owner, except for
    /// the own registrations of a test container modelled level by level (`TestModel`).
    var home: [Int] = []
    /// Every key registered in the tree, numbered.
    var keyNumbers: [RegistrationKey: Int] = [:]
    /// Per service: the number of its key.
    var keyOf: [Int] = []
    /// Per key number: the first service registered under that key; `nextProvider` chains the others (the
    /// same key registered in other containers).
    var firstProvider: [Int] = []
    /// Per service: the next service registered under the same key, `-1` at the end of the chain.
    var nextProvider: [Int] = []
    /// Per service: the number of its scope in `scopes`.
    var scopeOf: [Int] = []
    /// The distinct scopes of the tree, with what the checks need to know about each.
    var scopes: [ScopeTraits] = []
    /// Every service's dependencies, one after the other: service `i`'s are
    /// `dependencyList[dependencyStart[i]..<dependencyStart[i + 1]]`.
    var dependencyList: [DependencyRef] = []
    /// Parallel to `dependencyList`: what the walk needs of each dependency, without names or strings.
    var dependencyLookups: [DependencyLookup] = []
    var dependencyStart: [Int] = [0]
    var findings: [Finding] = []
    var marks: [Int: [Finding.ID]] = [:]
    /// Which services were built in copies before the analysis, to observe their dependencies.
    let tried: ObservedEdges.Tried

    /// A dependency as the walk follows it: key numbers and what its relationship means for the checks.
    struct DependencyLookup {
        /// The number of the dependency's key, `-1` when nothing in the tree is registered under it.
        let key: Int
        /// For `Optional<T>`: the number of `T`'s key (`-1` when unregistered); `nil` for other types.
        let wrapped: Int?
        /// An assisted `Provider<T, Argument>` declared without its argument types (`Dependency(_:kind:)` by
        /// hand): looked up among registrations that take arguments, any of them. One that `autoregister`
        /// recorded names its arguments in its key and is looked up by it.
        let matchesAnyArguments: Bool
        /// `All<T>`: nothing registered is an empty collection, not a missing dependency.
        let isCollection: Bool
        /// `Lazy`, `Provider`: a loop through it is no construction cycle.
        let isDeferred: Bool
        /// Whether the owner keeps the instance (every kind but `Provider`s, which resolve on each call).
        let keepsInstance: Bool
    }

    /// What the checks need to know about a scope, worked out once per scope instead of once per edge.
    struct ScopeTraits {
        let name: String
        /// `transient`, `graph`, `scoped`: built in (and resolving from) the container that asks.
        let buildsWhereAsked: Bool
        /// The tag of a `.matching(tag)` scope.
        let tag: String?
    }

    init(_ container: Container, observed: ObservedEdges = ObservedEdges()) {
        asked = container
        var ancestors = Array(container.ancestry.dropFirst().reversed())
        var subtree: [Container] = []
        var stack = [container]
        while let next = stack.popLast() {
            subtree.append(next)
            stack += next.children.reversed()
        }
        let model = TestModel(ancestors.first ?? container)
        if let model {
            // The test container's own registrations on top, then its views, the app's level first; the view
            // of the base's level stands for the test container itself.
            if ancestors.isEmpty {
                ancestors = [model.test] + model.levels.dropLast()
                subtree[0] = model.levels[model.levels.count - 1]
            } else {
                ancestors = [model.test] + model.levels + ancestors.dropFirst()
            }
        }
        live = ancestors + subtree
        askedIndex = ancestors.count
        tried = observed.tried
        index(observed: observed, model: model)
    }

    /// How a test container whose base is below the app is modelled (see `Container.testLevels`): one container
    /// per level of its base, each seeing the levels above it, and on top the test's own registrations, which
    /// every level sees first. The test's own kept instances resolve their dependencies from the base's level.
    struct TestModel {
        let test: Container
        /// The views, the app's level first.
        let levels: [Container]
        /// What each modelled container registers, by container.
        let registrations: [ObjectIdentifier: [Registration]]
        /// The parent of each container whose place in the model differs from its place in the tree.
        let parents: [ObjectIdentifier: Container]

        init?(_ root: Container) {
            guard let (own, levels) = root.testLevels else { return nil }
            test = root
            self.levels = levels.map(\.view)
            var registrations = [ObjectIdentifier(root): own]
            var parents: [ObjectIdentifier: Container] = [:]
            var above = root
            for (view, registered) in levels {
                registrations[ObjectIdentifier(view)] = registered
                parents[ObjectIdentifier(view)] = above
                above = view
            }
            for child in root.children { parents[ObjectIdentifier(child)] = above }
            self.registrations = registrations
            self.parents = parents
        }

        /// What the node of `container` is named: the test container's own registrations are told apart from
        /// the view of the base's level, which bears the test container's name.
        func name(of container: Container) -> String {
            container === test ? "\(test.name) (own registrations)" : container.name
        }

        /// The tags of the node of `container`: a view's are its level's own, so that a `.matching(tag)` service
        /// is placed at the level that has the tag, as at run time; the test's own registrations have none.
        func tags(of container: Container) -> Set<String> {
            container === test ? [] : container.viewedLevel?.tags ?? container.tags
        }
    }

    /// The dependencies of `service`, as positions in `dependencyList`.
    func dependencies(of service: Int) -> Range<Int> {
        dependencyStart[service]..<dependencyStart[service + 1]
    }

    /// Indexes containers and registrations and their dependencies.
    private mutating func index(observed: ObservedEdges, model: TestModel?) {
        var containerIndex: [ObjectIdentifier: Int] = [:]
        // A test container's base chain is modelled as registered in the test container, as it resolves it,
        // unless its base is below the app (`TestModel`).
        let all = live.map { model?.registrations[ObjectIdentifier($0)] ?? $0.registrationsTreatedAsOwn }
        let total = all.reduce(0) { $0 + $1.count }
        registrations.reserveCapacity(total)
        owner.reserveCapacity(total)
        home.reserveCapacity(total)
        keyOf.reserveCapacity(total)
        nextProvider.reserveCapacity(total)
        keyNumbers.reserveCapacity(total)
        // The test container's own instances resolve as the test container does: from its base's level.
        let baseLevel = model.flatMap { model in live.firstIndex { $0 === model.levels.last } }
        for (i, container) in live.enumerated() {
            containerIndex[ObjectIdentifier(container)] = i
            let home = container === model?.test ? baseLevel ?? i : i
            let parent = (model?.parents[ObjectIdentifier(container)] ?? container.parent)
                .flatMap { containerIndex[ObjectIdentifier($0)] }
            containers.append(.init(
                name: model?.name(of: container) ?? container.name,
                tags: (model?.tags(of: container) ?? container.tags).sorted(), parent: parent,
                isAncestor: i < askedIndex, isClosed: container.isClosed, isTestOverrides: container === model?.test
            ))
            if let parent { containers[parent].children.append(i) }
            containers[i].services = Array(registrations.count..<registrations.count + all[i].count)
            for registration in all[i] {
                let index = registrations.count
                registrations.append(registration)
                owner.append(i)
                self.home.append(home)
                nextProvider.append(-1)
                let number = keyNumbers.count
                if let existing = keyNumbers.updateValue(number, forKey: registration.key) {
                    // Chain it after the others registered under the same key.
                    keyNumbers[registration.key] = existing
                    keyOf.append(existing)
                    var last = firstProvider[existing]
                    while nextProvider[last] >= 0 { last = nextProvider[last] }
                    nextProvider[last] = index
                } else {
                    keyOf.append(number)
                    firstProvider.append(index)
                }
            }
        }
        // What an `All<T>` stands for: a dependency on each key of `T` registered anywhere in the tree (every name;
        // no runtime arguments, no key path), in the order of their first registration. Seen from a container,
        // the keys it does not see are missing, which a collection skips: `resolveAll` lists the keys it sees.
        // With no key of `T` at all, the one on `T`'s unnamed key: an empty collection.
        var collected = Set<ObjectIdentifier>()
        for registration in all.joined() {
            for dependency in registration.dependencies where dependency.collects {
                collected.insert(ObjectIdentifier(dependency.type))
            }
        }
        for refs in observed.dependencies.values {
            for ref in refs where ref.collects { collected.insert(ObjectIdentifier(ref.type)) }
        }
        var members: [ObjectIdentifier: [String?]] = [:]
        for provider in firstProvider {
            let key = registrations[provider].key
            if collected.contains(key.type), key.arguments == nil, key.keyPath == 0 {
                members[key.type, default: []].append(key.name)
            }
        }
        let hasObserved = !observed.dependencies.isEmpty || !observed.built.isEmpty
            || !observed.implementations.isEmpty
        services.reserveCapacity(total)
        scopeOf.reserveCapacity(total)
        dependencyStart.reserveCapacity(total + 1)
        let declared = registrations.reduce(0) { $0 + $1.dependencies.count }
        dependencyList.reserveCapacity(declared)
        dependencyLookups.reserveCapacity(declared)
        for (index, registration) in registrations.enumerated() {
            let container = owner[index]
            let shadows = containers[container].parent.flatMap { lookup(number: keyOf[index], from: $0) }
            var aliasOf: Int?
            var isAlias = false
            if let target = registration.aliasTarget {
                isAlias = true
                // The registration the alias's key names, seen from the alias's container.
                aliasOf = lookup(target, from: home[index])
            }
            let id = ObjectIdentifier(registration)
            for dependency in registration.dependencies {
                // Most dependencies collect nothing: appended as they are, without an array each.
                guard dependency.collects else {
                    append(DependencyRef(dependency))
                    continue
                }
                for member in Self.expanding(dependency, into: members) { append(DependencyRef(member)) }
            }
            if hasObserved {
                let declared = dependencyStart[index]
                for observed in observed.dependencies[id] ?? [] {
                    // A collection seen asked for (an `All<T>` a factory resolved) stands for its members, as a
                    // declared one does.
                    let refs = observed.collects
                        ? Self.expanding(observed.dependency, into: members).map { DependencyRef(observed: $0) }
                        : [observed]
                    for ref in refs where !dependencyList[declared...].contains(where: { $0.key == ref.key }) {
                        append(ref)
                    }
                }
            }
            dependencyStart.append(dependencyList.count)
            let scope = registration.lifetimeName
            scopeOf.append(number(ofScope: scope))
            services.append(.init(
                container: container,
                label: ServiceLabel(
                    type: registration.serviceType, name: registration.name, keyPathName: registration.keyPathName
                ),
                scope: scope,
                location: registration.location,
                aliasOf: aliasOf,
                arguments: registration.argumentTypes.map(ServiceName.readable),
                isAsync: registration.isAsync,
                edgesKnown: isAlias || registration.declaresDependencies
                    || (hasObserved && observed.built.contains(id)),
                shadows: shadows,
                implementation: hasObserved ? observed.implementations[id].flatMap {
                    ObjectIdentifier($0) == ObjectIdentifier(registration.serviceType) ? nil : $0
                } : nil
            ))
        }
    }

    /// `dependency`, or, when it collects (`All<T>`), one dependency on each of `T`'s keys in `members` (names by
    /// type, in the order of their first registration); on `T`'s unnamed key when there is none.
    private static func expanding(_ dependency: Dependency, into members: [ObjectIdentifier: [String?]])
        -> [Dependency]
    {
        guard dependency.collects else { return [dependency] }
        return (members[ObjectIdentifier(dependency.type)] ?? [nil]).map(dependency.named)
    }

    private mutating func append(_ ref: DependencyRef) {
        dependencyList.append(ref)
        // Kinds compare by name: most dependencies are direct, which one comparison settles.
        let kind = ref.kind
        let isDirect = kind == .direct
        dependencyLookups.append(DependencyLookup(
            key: keyNumbers[ref.key] ?? -1,
            wrapped: ref.wrapped.map { keyNumbers[$0.key] ?? -1 },
            matchesAnyArguments: !isDirect && kind == .assisted && ref.arguments == nil,
            isCollection: ref.collects,
            isDeferred: !isDirect && kind.isDeferred,
            keepsInstance: isDirect || (kind != .perCall && kind != .asyncPerCall && kind != .assisted)
        ))
    }

    /// The number of the scope named `name` in `scopes`, adding it when it is new.
    private mutating func number(ofScope name: String) -> Int {
        // A tree uses a handful of scopes: a scan beats hashing the name.
        if let known = scopes.firstIndex(where: { $0.name == name }) { return known }
        scopes.append(ScopeTraits(
            name: name, buildsWhereAsked: ["transient", "graph", "scoped"].contains(name), tag: Self.matchingTag(name)
        ))
        return scopes.count - 1
    }

    /// The nearest service for `key` seen from container `from`.
    func lookup(_ key: RegistrationKey, from: Int) -> Int? {
        keyNumbers[key].flatMap { lookup(number: $0, from: from) }
    }

    /// The nearest service registered under key number `number`, seen from container `from`.
    func lookup(number: Int, from: Int) -> Int? {
        guard number >= 0 else { return nil }
        let first = firstProvider[number]
        // Most keys are registered once: then the question is only whether its container is on the path.
        if nextProvider[first] < 0 {
            var current: Int? = from
            let container = owner[first]
            while let index = current {
                if index == container { return first }
                current = containers[index].parent
            }
            return nil
        }
        var current: Int? = from
        while let container = current {
            var provider = first
            while provider >= 0 {
                if owner[provider] == container { return provider }
                provider = nextProvider[provider]
            }
            current = containers[container].parent
        }
        return nil
    }

    /// The nearest registration of `key`'s type and name that takes runtime arguments, for an assisted
    /// `Provider<T, Argument>` declared without its argument types: any argument list counts (the first
    /// registered when a container has several).
    func lookupAssisted(_ key: RegistrationKey, from: Int) -> Int? {
        nearest(like: key, from: from) { $0.arguments != nil }
    }

    /// The nearest registration of `key`'s type and name that takes other runtime arguments than `key` does
    /// (some, other ones, or none): what a dependency that found nothing under `key` was probably meant for.
    func lookupOtherArguments(_ key: RegistrationKey, from: Int) -> Int? {
        nearest(like: key, from: from) { $0.arguments != key.arguments }
    }

    /// The nearest service seen from container `from` whose key has `key`'s type and name and passes `test`.
    private func nearest(like key: RegistrationKey, from: Int, where test: (RegistrationKey) -> Bool) -> Int? {
        var current: Int? = from
        while let container = current {
            let found = containers[container].services.first { service in
                let candidate = registrations[service].key
                return candidate.type == key.type && candidate.name == key.name && candidate.keyPath == 0
                    && test(candidate)
            }
            if let found { return found }
            current = containers[container].parent
        }
        return nil
    }

    /// Where dependency `position` (in `dependencyList`) resolves from container `from`: a service, `.absent`
    /// for a missing optional, or `.missing`.
    func resolve(dependency position: Int, from: Int) -> Resolution {
        let dependency = dependencyLookups[position]
        if dependency.matchesAnyArguments {
            return lookupAssisted(dependencyList[position].key, from: from).map(Resolution.service) ?? .missing
        }
        if let found = lookup(number: dependency.key, from: from) { return .service(found) }
        if let wrapped = dependency.wrapped {
            if let found = lookup(number: wrapped, from: from) { return .service(found) }
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
    /// `requestedFrom`; `nil` for a `.matching(tag)` service with no tagged container on the path, or whose
    /// nearest tagged container is above the one that registers it (which cannot see the registration).
    func context(of service: Int, requestedFrom: Int) -> Int? {
        // An alias builds nothing: it hands the request on to the registration it stands for, whose lifetime
        // places the instance for the container asked (also when that is a test container's own registration,
        // which every level of the test container's base sees first), and has a place where that one has.
        guard services[service].aliasOf != nil else { return context(ofBuilder: service, requestedFrom: requestedFrom) }
        var target = service
        for _ in 0..<Container.maximumAliasHops {
            guard let next = services[target].aliasOf, next != target else { break }
            target = next
        }
        // An alias of itself, or of aliases past the hops a resolve follows, has no builder to place.
        if services[target].aliasOf != nil { return requestedFrom }
        return context(ofBuilder: target, requestedFrom: requestedFrom).map { _ in requestedFrom }
    }

    /// `context(of:requestedFrom:)` of a registration that builds its instances (no alias).
    private func context(ofBuilder service: Int, requestedFrom: Int) -> Int? {
        let scope = scopeOf[service]
        if scopes[scope].buildsWhereAsked { return requestedFrom }
        if scopes[scope].tag != nil {
            guard let tagged = nearestTagged(for: service, from: requestedFrom), !tagged.isAboveRegistration
            else { return nil }
            return tagged.container
        }
        return home[service]
    }

    /// For a `.matching(tag)` service requested from `requestedFrom` that has no place there: the nearest
    /// container tagged `tag` on the path when it is above the container that registers the service, which
    /// would hold the instance and build it with a resolver that cannot see the registration.
    func taggedAboveRegistration(of service: Int, requestedFrom: Int) -> Int? {
        guard services[service].aliasOf == nil, let tagged = nearestTagged(for: service, from: requestedFrom),
              tagged.isAboveRegistration
        else { return nil }
        return tagged.container
    }

    /// The nearest container from `requestedFrom` up that carries the tag of `service`'s `.matching(tag)`
    /// lifetime, and whether it is above the container that registers `service`; `nil` when none does.
    private func nearestTagged(for service: Int, from requestedFrom: Int)
        -> (container: Int, isAboveRegistration: Bool)?
    {
        guard let tag = scopes[scopeOf[service]].tag else { return nil }
        var current: Int? = requestedFrom
        var above = false
        while let container = current {
            if containers[container].tags.contains(tag) { return (container, above) }
            if container == owner[service] { above = true }
            current = containers[container].parent
        }
        return nil
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
        case "singleton":
            // A `.cached` instance is there to be replaced by a reset, which a singleton holding it never sees.
            return dependency == "weak" || dependency == "cached" || (lifetimeRank(dependency) ?? 3) < 3
        case "cached":
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
