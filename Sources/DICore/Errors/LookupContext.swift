/// What a failed lookup remembers so that its error can suggest close matches.
///
/// Capturing is cheap and formatting is not, so the error keeps what the asking container and its ancestors
/// held when the lookup failed (the published tables' arrays, shared, not copied) and ranks and words the
/// suggestions only when it is printed: code that only checks the error's `code` pays for no text, and later
/// registrations do not change the message. Registrations in containers the asking one cannot see are looked
/// for when the error is printed, through a weak reference to the asking container: walking the whole tree at
/// every throw would make a failed lookup cost as much as the tree is large (a server has a child per
/// request). The error holds no container alive.
package final class LookupContext: Sendable {
    let containerName: String
    let key: RegistrationKey
    let type: Any.Type
    /// The `ServiceKeys` property of a keypath-registry key that was asked for (`analytics`), `nil` for a type.
    let keyPathName: String?
    /// The containers the lookup searched, nearest first (the asking container, its ancestors, and the base
    /// chain of a test container), with what each held.
    private let visible: [Holder]
    /// The asking container, for the registrations of the containers it cannot see; `nil` when its tree
    /// had no such container at the throw. Weak, and only then: a weakly referenced object keeps a side
    /// table for life, which slows every later retain and release of it, and a lookup that fails again and
    /// again (a probe for an optional service) would slow every use of its container.
    private weak let asking: Container?
    /// Whether the asking container is `Container.shared` or hangs below it: what `Container.current` is where
    /// nothing is bound, so that the other roots' trees are searched for the key when the error is printed.
    private let asksInShared: Bool

    private struct Holder: Sendable {
        let name: String
        let registrations: [Registration]
    }

    /// A lookup of `key` (whose service type is `type`) made from `container`; diagnostics make one to reuse
    /// the suggestions of a failed resolve without resolving.
    package init(container: Container, key: RegistrationKey, type: Any.Type, keyPathName: String? = nil) {
        // A test container's view of a level of its base (see `TestContainerLink`) fails as that level would:
        // named after it, and with what the level cannot see suggested as from the level.
        let level = container.viewedLevel ?? container
        self.containerName = level.name
        self.key = key
        self.type = type
        self.keyPathName = keyPathName
        var visible: [Holder] = []
        container.forEachRegistrationSource { source, _ in
            // A view registers nothing of its own.
            guard source.testing?.viewing == nil else { return }
            visible.append(Holder(name: source.name, registrations: source.registry.all))
        }
        self.visible = visible
        asking = Self.hidesContainers(from: level) ? level : nil
        asksInShared = container.nearest { $0.parentReference == nil }?.refers(to: Container.shared) ?? false
    }

    /// Whether `container`'s tree holds a container it cannot see: a child of its own, or of an ancestor
    /// beside the way up.
    private static func hidesContainers(from container: Container) -> Bool {
        var current = container
        var through: Container? = nil
        while true {
            if current.childCount > (through == nil ? 0 : 1) { return true }
            guard let parent = current.parent else { return false }
            through = current
            current = parent
        }
    }

    /// The names of the containers searched, nearest first.
    package var searchedContainers: [String] { visible.map(\.name) }

    /// A registration that was probably meant, with how far it is from the request.
    struct Match {
        /// Edit distance between the names (or the type names), the first ranking criterion.
        let distance: Int
        /// Breaks ties between kinds of match: another argument list, another name, a hidden container, a
        /// related type.
        let rank: Int
        /// The sentence listed under "close matches".
        let sentence: String
        /// The way out when this match is the best one and likely enough to be what was meant; `nil`
        /// keeps the default way out (register the service).
        let fix: String?
        /// The way out when a dependent's factory made the request, if it differs from `fix` (which changes a
        /// request the caller wrote).
        var dependencyFix: (@Sendable (Dependent) -> String)? = nil
        /// For a registration in another container tree: the name of the container that holds it.
        var otherTree: String? = nil
        /// For another name, another argument list or a related type visible from here: the registration, and the
        /// container that holds it.
        var meant: (registration: Registration, container: String)? = nil
    }

    /// Registrations that were probably meant, likeliest first.
    package func suggestions() -> [String] { matches().map(\.sentence) }

    /// The container of another tree that registers the service, when it is the likeliest close match.
    package var likeliestOtherTree: String? { matches().first?.otherTree }

    /// The visible registrations that were probably meant — another name or argument list of the type, a related
    /// type (`any Clock` for `SystemClock`) — likeliest first, each with the container that holds it.
    package func closeRegistrations() -> [(registration: Registration, container: String)] {
        matches().compactMap(\.meant)
    }

    /// The service whose factory asked for the missing one: a dependency is asked for by its dependent's
    /// factory (or, for `autoregister`, by type from its initializer), so a fix that changes the request is
    /// made there, not at a `container.resolve` the caller wrote.
    package struct Dependent: Sendable {
        /// The dependent as people write it: `Database`.
        let service: String
        /// Where it was registered.
        let location: SourceLocation

        package init(service: String, location: SourceLocation) {
            self.service = service
            self.location = location
        }

        /// The dependent of the last step of `path`: the step before it, when it is a registration's (not a
        /// relationship's, whose request its owner declared).
        init?(of path: [PathElement]) {
            guard path.count > 1 else { return nil }
            let step = path[path.count - 2]
            guard !step.isDeferred, let location = step.location else { return nil }
            self.init(service: step.description, location: location)
        }

        /// "in the factory of Database (App/Setup.swift:9),".
        var factory: String { "in the factory of \(service) (\(location))," }
    }

    /// The way out, as one line of code: it follows the likeliest close match when there is one.
    ///
    /// - Parameter dependent: The service whose factory asked, when the lookup was for a dependency.
    package func fix(code: ResolutionError.Code, neededBy dependent: Dependent? = nil) -> String? {
        guard code == .notRegistered || code == .argumentMismatch else { return nil }
        if let best = matches().first, let fix = best.fix {
            return dependent.flatMap { best.dependencyFix?($0) } ?? fix
        }
        return "register it in \(containerName) or an ancestor: "
            + "try container.register(\(ServiceName.key(type, name: key.name))) { r in … }"
    }

    /// Every close match, likeliest first: smallest edit distance, then kind, then nearest container.
    func matches() -> [Match] {
        var found: [Match] = []
        let typeName = ServiceName.readable(type)
        var seen = Set<RegistrationKey>()
        var sameTypeCount = 0
        // Asked by type alone, a keypath-registry key of the type may be what provides it.
        let byTypeAlone = keyPathName == nil && key.keyPath == 0 && key.name == nil && key.arguments == nil

        for owner in visible {
            for registration in owner.registrations where byTypeAlone && registration.key.keyPath != 0
                && registration.key.type == key.type && seen.insert(registration.key).inserted
            {
                found.append(keyMatch(registration, in: owner))
            }
            for registration in owner.registrations
            where registration.key != key && registration.key.keyPath == 0 && seen.insert(registration.key).inserted {
                let sameType = registration.key.type == key.type
                if sameType && registration.key.arguments != key.arguments && registration.key.name == key.name {
                    var match = argumentMatch(registration, in: owner)
                    match.meant = (registration, owner.name)
                    found.append(match)
                } else if sameType && registration.key.arguments == key.arguments {
                    sameTypeCount += 1
                    var match = nameMatch(registration, in: owner)
                    match.meant = (registration, owner.name)
                    found.append(match)
                } else if !sameType && registration.key.name == key.name && registration.key.arguments == nil
                    && Self.looksRelated(String(describing: registration.serviceType), to: typeName),
                    let relation = Self.relation(of: registration.serviceType, to: type)
                {
                    let shown = registration.displayName
                    let implements = ".implements(\(ServiceName.metatype(type)))"
                    // Another type is a weaker guess than any name: it ranks after every name match.
                    found.append(Match(
                        distance: 100 + Self.distance(
                            String(describing: registration.serviceType), String(describing: type)
                        ),
                        rank: 3,
                        sentence: "\(shown) is registered in \(owner.name) (\(registration.location)); "
                            + "if \(relation), expose it with \(implements).",
                        fix: "if \(relation), add \(implements) to its registration at \(registration.location)",
                        meant: (registration, owner.name)
                    ))
                }
            }
        }

        for other in hiddenRegistrations() {
            let registration = other.registration
            // The very key, only out of sight: as likely as a one-letter typo.
            found.append(Match(
                distance: 1,
                rank: 2,
                sentence: "\(registration.displayName) is registered in \(other.container) "
                    + "(\(registration.location)), which \(containerName) cannot see (it is not \(containerName) "
                    + "or an ancestor). Register it in a common ancestor.",
                fix: other.commonAncestor.map {
                    "move the registration at \(registration.location) from \(other.container) to \($0), which "
                        + "\(containerName) and \(other.container) both see"
                }
            ))
        }

        for other in otherTreeRegistrations() {
            let registration = other.registration
            let (containerName, service) = (containerName, ServiceName.describe(type, name: key.name))
            let resolve = "\(other.container).resolve(\(ServiceName.key(type, name: key.name)))"
            // The very key, in a tree of its own: `Container.current` read where the app's root was not bound.
            found.append(Match(
                distance: 1,
                rank: 2,
                sentence: "\(registration.displayName) is registered in \(other.container) "
                    + "(\(registration.location)), a container of another tree, which \(containerName) cannot see.",
                fix: "resolve it from \(other.container): call \(resolve), or run this code inside "
                    + "withContainer(\(other.container)) { … }, where Container.current is \(other.container)",
                dependencyFix: { dependent in
                    "move the registration of \(dependent.service) at \(dependent.location) to \(other.container): "
                        + "\(other.container) registers \(service), and \(containerName) cannot see it"
                },
                otherTree: other.container
            ))
        }

        // A name match drives the way out only when it is close, or the only registration of the type.
        let ranked = found.enumerated().sorted { a, b in
            (a.element.distance, a.element.rank, a.offset) < (b.element.distance, b.element.rank, b.offset)
        }.map(\.element)
        guard let best = ranked.first, best.rank == 1, sameTypeCount > 1,
              best.distance > Self.closeDistance(for: key.name)
        else { return ranked }
        return [Match(distance: best.distance, rank: best.rank, sentence: best.sentence, fix: nil, meant: best.meant)]
            + ranked.dropFirst()
    }

    /// Registrations of `key` in containers the asking one cannot see, with the nearest container both see.
    private func hiddenRegistrations() -> [(registration: Registration, container: String, commonAncestor: String?)] {
        guard let container = asking else { return [] }
        return Self.allContainers(under: container.root).compactMap { other in
            guard !container.sees(other), let registration = other.registry.registration(for: key) else { return nil }
            return (registration, other.name, Self.commonAncestor(of: container, and: other)?.name)
        }
    }

    /// Registrations of `key` in the other open roots (not their children: walking another tree would hold its
    /// containers for the walk, and a server's app container has a child per request in flight), for a lookup
    /// made in `Container.shared`'s tree; each with its root's name, once per name and registration site.
    private func otherTreeRegistrations() -> [(registration: Registration, container: String)] {
        guard asksInShared else { return [] }
        var found: [(registration: Registration, container: String)] = []
        var seen = Set<String>()
        RootList.forEach { root in
            // A closed container resolves nothing: resolving from it would not help.
            guard root !== Container.shared, !root.isClosed, let registration = root.registry.registration(for: key),
                  seen.insert("\(root.name) \(registration.location)").inserted
            else { return }
            found.append((registration, root.name))
        }
        return found
    }

    /// How many edits a name may be away from the requested one to count as a typo of it.
    package static func closeDistance(for name: String?) -> Int {
        max(2, (name?.count ?? 0) / 3)
    }

    /// The one of `candidates` that `name` is most likely a typo of: within `closeDistance(for:)` of it, the
    /// fewest edits away, then the first in alphabetical order; `nil` when none is that close.
    package static func likeliestTypo(of name: String, among candidates: some Sequence<String>) -> String? {
        candidates.lazy.map { (candidate: $0, distance: distance($0, name)) }
            .filter { $0.distance <= closeDistance(for: name) }
            .min { ($0.distance, $0.candidate) < ($1.distance, $1.candidate) }?.candidate
    }

    private func argumentMatch(_ registration: Registration, in owner: Holder) -> Match {
        let shown = registration.displayName
        let call = "try container.resolve(\(ServiceName.key(type, name: key.name))"
        guard !registration.argumentTypes.isEmpty else {
            return Match(
                distance: 0,
                rank: 0,
                sentence: "\(shown) is registered without runtime arguments in \(owner.name) "
                    + "(\(registration.location)): resolve it without arguments.",
                fix: "resolve it without arguments: \(call))",
                dependencyFix: { "\($0.factory) resolve it without arguments" }
            )
        }
        let taking = registration.argumentTypes.map(ServiceName.readable)
        let placeholders = taking.map { "<\($0)>" }.joined(separator: ", ")
        let label = registration.argumentLabel
        return Match(
            distance: 0,
            rank: 0,
            sentence: "\(shown) takes \(registration.argumentsTaken) in \(owner.name) "
                + "(\(registration.location)): pass \(taking.count == 1 ? "it" : "them") with "
                + "resolve(_:\(label):).",
            fix: "pass its \(label): \(call), \(label): \(placeholders))",
            dependencyFix: { [type, key] dependent in
                "\(dependent.factory) pass its \(label): "
                    + "try r.resolve(\(ServiceName.key(type, name: key.name)), \(label): \(placeholders))"
            }
        )
    }

    private func nameMatch(_ registration: Registration, in owner: Holder) -> Match {
        let shown = registration.displayName
        let place = "in \(owner.name) (\(registration.location))"
        let containerName = containerName
        let asked = ServiceName.describe(type, name: key.name)
        switch (registration.key.name, key.name) {
        case (nil, let name?):
            return Match(
                distance: name.count,
                rank: 1,
                sentence: "\(shown) is registered without a name \(place): resolve it without `name:`.",
                fix: "resolve it without a name: try container.resolve(\(ServiceName.metatype(type)))",
                dependencyFix: { dependent in
                    "\(dependent.factory) resolve it without a name, or register \(asked) in \(containerName) or an "
                        + "ancestor"
                }
            )
        case (let other?, nil):
            return Match(
                distance: other.count,
                rank: 1,
                sentence: "\(shown) is registered under the name \"\(other)\" \(place): pass name: \"\(other)\".",
                fix: "pass name: \"\(other)\": try container.resolve(\(ServiceName.key(type, name: other)))",
                dependencyFix: { dependent in
                    "\(dependent.factory) resolve it with name: \"\(other)\", or register \(asked) without a name "
                        + "in \(containerName) or an ancestor"
                }
            )
        case (let other?, let name?):
            let distance = Self.distance(other, name)
            let isTypo = distance <= Self.closeDistance(for: name)
            var dependencyFix: (@Sendable (Dependent) -> String)? = nil
            if isTypo {
                dependencyFix = { dependent in "\(dependent.factory) resolve it with name: \"\(other)\"" }
            }
            return Match(
                distance: distance,
                rank: 1,
                sentence: "\(shown) is registered \(place)." + (isTypo ? " Did you mean \"\(other)\"?" : ""),
                fix: isTypo
                    ? "pass name: \"\(other)\": try container.resolve(\(ServiceName.key(type, name: other)))" : nil,
                dependencyFix: dependencyFix
            )
        case (nil, nil):
            guard let keyPathName else {
                return Match(distance: 0, rank: 1, sentence: "\(shown) is registered \(place).", fix: nil)
            }
            // A keypath-registry key and its type are two registrations: the key does not find the type's.
            let forward = "try container.register(\\.\(keyPathName)) { r in try "
                + "r.resolve(\(ServiceName.metatype(type))) }"
            return Match(
                distance: 0,
                rank: 1,
                sentence: "\(shown) is registered by type \(place), which \\.\(keyPathName), a key of its own, does "
                    + "not find: register the key instead, or make it resolve that registration: \(forward).",
                fix: "register the key, or make it resolve the registration by type at \(registration.location): "
                    + forward
            )
        }
    }

    /// A keypath-registry key of the type asked for by type (`\.clock` for `any Clock`): the two are separate
    /// registrations, and the key's is the one that exists.
    private func keyMatch(_ registration: Registration, in owner: Holder) -> Match {
        let key = "\\.\(registration.keyPathName ?? "key")"
        return Match(
            distance: 0,
            rank: 1,
            sentence: "\(key) provides \(ServiceName.readable(type)) in \(owner.name) (\(registration.location)), a "
                + "key of its own that a resolve by type does not find: resolve the key, "
                + "try container.resolve(\(key)).",
            fix: "resolve the key: try container.resolve(\(key))",
            // A dependency is asked for by type: resolve the key in its dependent's factory, or register the type
            // as what the key provides, which serves every dependent (an initializer's parameters too).
            dependencyFix: { [type] dependent in
                "\(dependent.factory) resolve the key (try r.resolve(\(key))), or register the type as what the key "
                    + "provides: try container.register(\(ServiceName.metatype(type))) { r in try r.resolve(\(key)) }"
            },
            meant: (registration, owner.name)
        )
    }

    /// `ConsoleLogger` looks related to `any Logger`: one name contains the other.
    /// When an instance registered as `registered` could be handed out as `requested` (what `.implements`
    /// needs), the condition, as the advice states it: "Router conforms to Routing", "any Clock always
    /// holds a SystemClock". `nil` when it never can: a value type is only ever itself.
    static func relation(of registered: Any.Type, to requested: Any.Type) -> String? {
        let (shown, wanted) = (ServiceName.readable(registered), ServiceName.readable(requested))
        switch (TypeKind(registered), TypeKind(requested)) {
        case (_, .existential): return "\(shown) conforms to \(ServiceName.protocols(requested))"
        case (.existential, _): return "\(shown) always holds a \(wanted)"
        case (.class, .class): return "\(shown) is a subclass of \(wanted)"
        default: return nil
        }
    }

    static func looksRelated(_ candidate: String, to requested: String) -> Bool {
        let bare = requested.hasPrefix("any ") ? String(requested.dropFirst(4)) : requested
        guard bare.count >= 3, candidate != requested else { return false }
        return candidate.contains(bare) || bare.contains(candidate)
    }

    static func allContainers(under root: Container) -> [Container] {
        var result: [Container] = []
        var queue = [root]
        while let next = queue.popLast() {
            result.append(next)
            queue += next.children
        }
        return result
    }

    /// The nearest container that both `a` and `b` see.
    static func commonAncestor(of a: Container, and b: Container) -> Container? {
        let ancestors = Set(a.ancestry.map(ObjectIdentifier.init))
        return b.ancestry.first { ancestors.contains(ObjectIdentifier($0)) }
    }

    /// Edit distance counting an insertion, a deletion, a substitution or a swap of two neighbours as one
    /// edit (optimal string alignment), so `primray` is one edit from `primary`.
    package static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var best = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    best = min(best, beforePrevious[j - 2] + 1)
                }
                current[j] = best
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}
