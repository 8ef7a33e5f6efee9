import DICore

extension GraphAnalysis {
    /// A node of the validation: a service, and the container its dependencies come from.
    struct Node: Hashable {
        let service: Int
        let context: Int
    }

    /// Runs every check and returns the graph with its findings.
    ///
    /// - Parameter edges: Whether the graph gets its edges (the renderings need them, a validation does not).
    mutating func run(edges includingEdges: Bool = true) -> DependencyGraph {
        var edges: [DependencyGraph.Edge] = []
        for (index, service) in services.enumerated() where includingEdges {
            if let target = service.aliasOf {
                edges.append(.init(from: index, to: target, label: services[target].label, kind: .alias))
            }
            for position in dependencies(of: index) {
                let ref = dependencyList[position]
                let to: Int?
                switch resolve(dependency: position, from: service.container) {
                case .service(let found): to = found
                case .absent: continue
                // An empty collection is valid: `All<T>` of nothing resolves to no instances.
                case .missing where ref.collects: continue
                case .missing: to = nil
                }
                edges.append(.init(
                    from: index, to: to, label: ref.label, kind: ref.observed ? .observed : .declared,
                    relationship: ref.kind
                ))
            }
        }
        checkClosed()
        checkShadows()
        checkTags()
        checkTaggedAboveRegistrations()
        walk()
        checkOpaque()
        let report = ValidationReport(
            findings: findings, container: asked.name, containerCount: live.count - askedIndex,
            registrationCount: services.count, ancestorCount: DependencyGraph.ancestorCount(containers)
        )
        return DependencyGraph(
            container: asked.name, containers: containers, services: services, edges: edges,
            findings: report.findings, marks: marks
        )
    }

    private mutating func add(_ finding: Finding, about service: Int) {
        findings.append(finding)
        if !(marks[service] ?? []).contains(finding.id) { marks[service, default: []].append(finding.id) }
    }

    /// DI-SHADOW: a registration of a descendant of the asked container (or of itself) hides an ancestor's.
    private mutating func checkShadows() {
        for (index, service) in services.enumerated() where service.container >= askedIndex {
            guard let hidden = service.shadows else { continue }
            let container = containers[service.container].name
            let other = containers[services[hidden].container].name
            add(Finding(
                id: .shadow, severity: .note, service: service.display, container: container,
                message: "\(container) registers \(service.display) (\(service.location)), which hides the "
                    + "registration in \(other) (\(services[hidden].location)) for \(container) and its descendants.",
                path: [element(index, in: service.container), element(hidden, in: services[hidden].container)],
                help: "Nothing to do if the override is meant; otherwise remove one of the two registrations."
            ), about: index)
        }
    }

    /// DI-MATCHING, as a warning: a `.matching(tag)` registration whose tag no container here carries, a few
    /// edits away from a tag one does: a typo that fails every resolve of the service. A tag that no
    /// container carries yet is no finding by itself: a server's app registers `.matching("request")` services
    /// at start-up, before any request container exists.
    private mutating func checkTags() {
        // The ancestors' registrations too: the asked container resolves them, and fails the same way.
        for (index, service) in services.enumerated() {
            guard let tag = Self.matchingTag(service.scope), let (meant, tagged) = containerTagged(closeTo: tag)
            else { continue }
            let container = containers[service.container].name
            add(Finding(
                id: .matching, severity: .warning, service: service.display, container: container,
                message: "\(service.display) is registered with .matching(\"\(tag)\") in \(container) "
                    + "(\(service.location)), but no container here is tagged \"\(tag)\"; \(tagged.name) is tagged "
                    + "\"\(meant)\". Every resolve of \(service.display) fails until a container tagged "
                    + "\"\(tag)\" asks.",
                path: [element(index, in: service.container)],
                help: "If \(service.display) should live once per \(tagged.name), register it with "
                    + ".matching(\"\(meant)\") at \(service.location)."
            ), about: index)
        }
    }

    /// Why a `.matching(tag)` service registered below `tagged`, the nearest container with its tag, has no place
    /// there ("in feature (…), and the nearest container tagged …"), and the way out; the resolve error's words.
    private func taggedAboveProblem(_ service: Int, tagged: Int) -> (problem: String, help: String) {
        let (registeredIn, holder) = (containers[owner[service]].name, containers[tagged].name)
        let (display, tag) = (services[service].display, Self.matchingTag(services[service].scope) ?? "?")
        return (
            "in \(registeredIn) (\(services[service].location)), and the nearest container tagged \"\(tag)\" is "
                + "\(holder), an ancestor of \(registeredIn); \(holder) would hold the instance and build it with its "
                + "own resolver, which cannot see registrations made in \(registeredIn).",
            "Tag \(registeredIn) or a container below it, or register \(display) in \(holder)."
        )
    }

    /// DI-MATCHING, as an error: a `.matching(tag)` registration that no container seeing it can build — the
    /// nearest container with its tag is above the one that registers it, and none at or below that one has the
    /// tag — so every resolve of it fails.
    private mutating func checkTaggedAboveRegistrations() {
        // An alias builds nothing: the registration it stands for is checked itself.
        for (index, service) in services.enumerated() where service.container >= askedIndex && service.aliasOf == nil {
            guard let tag = Self.matchingTag(service.scope),
                  let tagged = taggedAboveRegistration(of: index, requestedFrom: service.container),
                  !subtree(of: service.container).contains(where: { containers[$0].tags.contains(tag) })
            else { continue }
            let (problem, help) = taggedAboveProblem(index, tagged: tagged)
            let container = containers[service.container].name
            add(Finding(
                id: .matching, severity: .error, service: service.display, container: container,
                message: "\(service.display) is registered with .matching(\"\(tag)\") \(problem) Every resolve of "
                    + "\(service.display) fails.",
                path: [element(index, in: service.container)], help: help
            ), about: index)
        }
    }

    /// `container` and its descendants.
    private func subtree(of container: Int) -> [Int] {
        var result = [container]
        var index = 0
        while index < result.count {
            result += containers[result[index]].children
            index += 1
        }
        return result
    }

    /// When no container here carries `tag` but one carries a tag a few edits from it: that tag, and the first
    /// container with it. What a typo in `.matching(tag)` was probably meant to say.
    func containerTagged(closeTo tag: String) -> (tag: String, container: DependencyGraph.ContainerNode)? {
        let tags = Set(containers.flatMap(\.tags))
        guard !tags.contains(tag), let meant = LookupContext.likeliestTypo(of: tag, among: tags),
              let tagged = containers.first(where: { $0.tags.contains(meant) })
        else { return nil }
        return (meant, tagged)
    }

    /// DI-CLOSED: a close took away the registrations the asked container resolves. Without this, a closed
    /// container would validate as an empty graph with no errors. A closed descendant is not a finding: a
    /// request's container that finished is closed, and the tree above it still works.
    private mutating func checkClosed() {
        guard let (problem, help) = asked.closedDiagnosis else { return }
        findings.append(Finding(
            id: .closed, severity: .error, service: asked.name, container: asked.name, message: problem, help: help
        ))
    }

    /// DI-OPAQUE: one note listing the registrations whose edges are unknown.
    private mutating func checkOpaque() {
        let opaque = services.indices.filter { services[$0].container >= askedIndex && !services[$0].edgesKnown }
        guard !opaque.isEmpty else { return }
        let count = opaque.count
        let listed = opaque.prefix(20).map {
            "\(services[$0].display) in \(containers[services[$0].container].name) (\(services[$0].location))"
        }
        let more = count > 20 ? ["… and \(count - 20) more"] : []
        let anyAsync = opaque.contains { services[$0].isAsync }
        // What is left after building in copies is what the build skipped (async factories, runtime arguments)
        // or what failed (reported on its own).
        let help = switch tried {
        case .none where anyAsync:
            "Register them with autoregister(_:initializer:), or run validateAsync() (validate(instantiating: "
                + "true) builds only synchronous factories) to observe what their factories resolve."
        case .none:
            "Register them with autoregister(_:initializer:), or run validate(instantiating: true) to observe what "
                + "their factories resolve."
        case .synchronous where anyAsync:
            "validate(instantiating: true) builds only synchronous factories: run validateAsync() to build those "
                + "with an async factory too, or register them with autoregister(_:initializer:) to declare their "
                + "dependencies."
        case .synchronous, .all:
            "Register them with autoregister(_:initializer:) to declare their dependencies: a service that takes "
                + "runtime arguments is built only by a resolve that passes them, and one whose build failed is "
                + "reported above."
        }
        findings.append(Finding(
            id: .opaque, severity: .note, service: .counted(count, "registration"),
            container: asked.name,
            message: "\(count) registration\(count == 1 ? " has" : "s have") dependencies that cannot be seen "
                + "without running \(count == 1 ? "its factory" : "their factories")"
                + (tried == .none ? "" : ", which the check did not build")
                + "; they were not checked for missing dependencies, cycles or captives: "
                + (listed + more).joined(separator: "; ") + ".",
            help: help
        ))
        for index in opaque { marks[index, default: []].append(.opaque) }
    }

    /// Follows every edge from every container of the validated subtree: DI-MISSING, DI-MATCHING, DI-CAPTIVE,
    /// then DI-CYCLE and DI-DEFERRED-CYCLE on the strongly connected components of what was reached.
    ///
    /// A relationship to a missing type is DI-MISSING (it fails when injected), except `All<T>`: an empty
    /// collection is valid.
    private mutating func walk() {
        var nodes = NodeTable(serviceCount: services.count)
        var graph = Adjacency()
        var reported = Set<String>()
        // Whether a holder of each scope keeps a dependency of each scope captive, worked out once.
        let captive = scopes.map { holder in
            scopes.map { Self.isCaptive(holder: holder.name, dependency: $0.name) }
        }
        // The container whose top-level requests last saw each key: a key is requested once per container.
        var seen = [Int](repeating: -1, count: keyNumbers.count)
        // The services a node's dependencies resolve to, with the dependency's position (`-1` for an alias).
        var targets: [(service: Int, dependency: Int)] = []
        // The DI-MATCHING failures found, for `reportEveryWayIn`.
        var matchingFailures: [MatchingFailure] = []

        func path(to id: Int) -> [PathElement] {
            self.path(of: nodes.chain(to: id), nodes: nodes)
        }

        // Every service visible from every container of the subtree is a possible top-level request. Nodes
        // are numbered in the order they are found and followed in that order (a breadth-first walk), so
        // node `id`'s successors are the edges added while following it.
        for container in askedIndex..<live.count {
            var current: Int? = container
            while let owner = current {
                for service in containers[owner].services {
                    let key = keyOf[service]
                    guard seen[key] != container else { continue }
                    seen[key] = container
                    guard let context = context(of: service, requestedFrom: container) else { continue }
                    _ = nodes.intern(Node(service: service, context: context), from: -1)
                }
                current = containers[owner].parent
            }
            while graph.start.count < nodes.count {
                let id = graph.start.count
                graph.start.append(graph.targets.count)
                let node = nodes.nodes[id]
                // Read in full only to word a finding: copying a node's strings on every hop costs more than
                // the walk itself.
                var holder: DependencyGraph.ServiceNode { services[node.service] }
                let holderAlias = services[node.service].aliasOf
                targets.removeAll(keepingCapacity: true)
                if let alias = holderAlias { targets.append((alias, -1)) }
                for position in dependencies(of: node.service) {
                    switch resolve(dependency: position, from: node.context) {
                    case .service(let found):
                        targets.append((found, position))
                    case .absent:
                        continue
                    case .missing where dependencyLookups[position].isCollection:
                        continue
                    case .missing:
                        let ref = dependencyList[position]
                        guard reported.insert("missing|\(node.service)|\(ref.declaredType)|\(ref.display)").inserted
                        else { continue }
                        if let other = lookupOtherArguments(ref.key, from: node.context) {
                            add(argumentMismatch(ref, of: holder.display, found: other, path: path(to: id),
                                                 in: node.context), about: node.service)
                            continue
                        }
                        let context = LookupContext(container: live[node.context], key: ref.key, type: ref.type)
                        let searched = context.searchedContainers.joined(separator: " → ")
                        let missing = PathElement(missing: ref.type, name: ref.key.name, in: live[node.context])
                        add(Finding(
                            id: .missing, severity: .error, service: ref.display,
                            container: containers[node.context].name,
                            message: "\(holder.display) needs \(ref.display), which is not registered in "
                                + "\(containers[node.context].name) or an ancestor (searched \(searched)).",
                            path: path(to: id) + [missing],
                            suggestions: context.suggestions(),
                            help: context.fix(
                                code: .notRegistered,
                                neededBy: LookupContext.Dependent(service: holder.display, location: holder.location)
                            ) ?? "Register \(ref.display)."
                        ), about: node.service)
                    }
                }
                for (target, position) in targets {
                    var dependency: DependencyGraph.ServiceNode { services[target] }
                    var display: String {
                        position < 0 ? services[target].label.text : dependencyList[position].label.text
                    }
                    guard let targetContext = context(of: target, requestedFrom: node.context) else {
                        guard reported.insert("matching|\(node.service)|\(target)|\(node.context)").inserted
                        else { continue }
                        let failure = MatchingFailure(
                            node: id, target: target, display: display,
                            tag: Self.matchingTag(dependency.scope) ?? "?", reportedThrough: nodes.chain(to: id)
                        )
                        addMatching(failure, through: failure.reportedThrough, nodes: nodes)
                        matchingFailures.append(failure)
                        continue
                    }
                    if position >= 0,
                       let builder = asyncOnlyBuilder(of: target, neededBy: node.service, through: position),
                       reported.insert("async|\(node.service)|\(target)").inserted
                    {
                        add(asyncOnly(target, builtBy: builder, neededBy: node.service, through: position,
                                      path: path(to: id), in: node.context, targetContext), about: node.service)
                    }
                    let next = nodes.intern(Node(service: target, context: targetContext), from: id)
                    let lookup = position < 0 ? nil : dependencyLookups[position]
                    graph.targets.append(next)
                    graph.deferred.append(lookup?.isDeferred ?? false)
                    // A Provider resolves again on every call: it keeps nothing captive.
                    if holderAlias != target, lookup?.keepsInstance ?? true,
                       captive[scopeOf[node.service]][scopeOf[target]],
                       reported.insert("captive|\(node.service)|\(target)").inserted
                    {
                        let resettable = dependency.scope == "cached"
                        add(Finding(
                            id: .captive, severity: .warning, service: holder.display,
                            container: containers[node.context].name,
                            message: "\(holder.display) (\(holder.scope)) keeps \(display) (\(dependency.scope)), "
                                + (resettable
                                    ? "which reset(.cached) is for replacing: after a reset, the \(holder.scope) "
                                        + "instance still holds on to the \(display) it was built with."
                                    : "which should not outlive it: the \(holder.scope) instance holds on to the "
                                        + "\(display) it was built with for as long as it lives."),
                            path: path(to: id) + [element(target, in: targetContext)],
                            help: resettable
                                ? "Give \(holder.display) .cached too, so that a reset replaces both, or inject "
                                    + "Provider<\(ServiceName.describe(dependency.label.type, name: nil))> and "
                                    + "resolve \(display) when it is needed."
                                : "Give \(display) a lifetime at least as long as \(holder.scope), or inject a "
                                    + "factory (a closure or a Provider) and resolve \(display) when it is needed."
                        ), about: node.service)
                    }
                }
            }
        }
        graph.start.append(graph.targets.count)
        if !matchingFailures.isEmpty {
            reportEveryWayIn(matchingFailures, nodes: nodes, graph: graph, reported: &reported)
        }
        // A loop through a deferred edge is no construction cycle: only direct edges make DI-CYCLE errors.
        findCycles(nodes: nodes.nodes, successors: graph.direct, reported: &reported)
        findDeferredCycles(nodes: nodes.nodes, successors: graph, reported: &reported)
    }

    /// A `.matching` service that a node needs and that has no tagged container on its path (DI-MATCHING),
    /// reported the way the node was first reached (`reportedThrough`, top-level request first).
    struct MatchingFailure {
        let node: Int
        let target: Int
        let display: String
        let tag: String
        let reportedThrough: [Int]
    }

    /// The other ways to each DI-MATCHING failure, each with its own way out. The walk reaches a node once, and
    /// reports a failure the way it first came: a transient `Layout` that needs a `.matching` service fails when
    /// asked directly (resolve it from a tagged container) and also under a singleton `Page` (which no tagged
    /// asker can help: its lifetime is what to change). Whichever came first, the other is reported here too: a
    /// singleton (or another service kept where it is registered) that reaches the failure through services
    /// built where they are asked, and the node asked directly when the walk came through such a singleton.
    private mutating func reportEveryWayIn(
        _ failures: [MatchingFailure], nodes: NodeTable, graph: Adjacency, reported: inout Set<String>
    ) {
        // What reaches each node, made once, on this failure path only.
        var reaching = [[Int]](repeating: [], count: nodes.count)
        for from in 0..<graph.count {
            for edge in graph.successors(of: from) { reaching[graph.targets[edge]].append(from) }
        }
        for failure in failures {
            let failing = nodes.nodes[failure.node]
            // Which service kept where it is registered decided the first report, if one did.
            let firstKeeper = KeptOnTheWay.keeperIndex(in: path(of: failure.reportedThrough, nodes: nodes))
                .map { failure.reportedThrough[$0] }
            if let firstKeeper { reported.insert("matching-kept|\(firstKeeper)|\(failure.target)") }
            // Asked directly (it is built where it is asked, so from its context), the failing node's way out is a
            // tagged asker, unless it is itself the keeper.
            let askedDirectly = failing.context >= askedIndex
                && lookup(number: keyOf[failing.service], from: failing.context) == failing.service
            if firstKeeper != nil, firstKeeper != failure.node, askedDirectly,
               reported.insert("matching-direct|\(failure.node)|\(failure.target)").inserted
            {
                addMatching(failure, through: [failure.node], nodes: nodes)
            }
            // Up through what is built where it is asked, to each keeper; `toward` leads back to the failure.
            func scope(_ node: Int) -> String { services[nodes.nodes[node].service].scope }
            guard KeptOnTheWay.buildsWithItsDependent(scope(failure.node)) else { continue }
            var toward = [failure.node: -1]
            var pending = [failure.node]
            while let current = pending.popLast() {
                for previous in reaching[current] where toward[previous] == nil {
                    toward[previous] = current
                    if KeptOnTheWay.buildsWithItsDependent(scope(previous)) {
                        pending.append(previous)
                        continue
                    }
                    guard !KeptOnTheWay.buildsForAsker(scope(previous)),
                          reported.insert("matching-kept|\(previous)|\(failure.target)").inserted
                    else { continue }
                    var chain = [previous]
                    while let next = toward[chain[chain.count - 1]], next >= 0 { chain.append(next) }
                    addMatching(failure, through: chain, nodes: nodes)
                }
            }
        }
    }

    /// The DI-MATCHING finding for `failure` reached through `chain` (node numbers, the failing node last). Told
    /// from, and marked on, the service kept where it is registered on the way, when there is one (`Page needs
    /// Session through Layout`), whose lifetime is then what to change; else the failing node, which a tagged
    /// asker helps.
    private mutating func addMatching(_ failure: MatchingFailure, through chain: [Int], nodes: NodeTable) {
        let holder = services[nodes.nodes[failure.node].service].display
        let context = nodes.nodes[failure.node].context
        let from = containers[context].name
        let path = path(of: chain, nodes: nodes)
        let keeperIndex = KeptOnTheWay.keeperIndex(in: path)
        // A keeper before the failing node needs the `.matching` service through the steps after it.
        let needs = keeperIndex.flatMap { $0 < path.count - 1 ? $0 : nil }.map { index in
            "\(path[index]) needs \(failure.display) through "
                + path[(index + 1)...].map(\.description).joined(separator: " → ")
        } ?? "\(holder) needs \(failure.display)"
        if let tagged = taggedAboveRegistration(of: failure.target, requestedFrom: context) {
            // No asker and no lifetime of the holder helps: the registration is below every tagged container.
            let (problem, help) = taggedAboveProblem(failure.target, tagged: tagged)
            add(Finding(
                id: .matching, severity: .error, service: services[failure.target].display, container: from,
                message: "\(needs), whose lifetime is \(services[failure.target].scope), but "
                    + "\(services[failure.target].display) is registered \(problem)",
                path: path + [element(failure.target, in: context)], help: help
            ), about: nodes.nodes[chain[chain.count - 1]].service)
            return
        }
        add(Finding(
            id: .matching, severity: .error, service: services[failure.target].display, container: from,
            message: "\(needs), whose lifetime is \(services[failure.target].scope), but no container on the path "
                + "from \(from) is tagged \"\(failure.tag)\".",
            path: path + [element(failure.target, in: context)],
            help: KeptOnTheWay.advice(path: path, needed: failure.display, tag: failure.tag)
                ?? KeptOnTheWay.taggedHolderAdvice(
                    path: path, needed: failure.display, tag: failure.tag, holderTags: Set(containers[context].tags),
                    root: containers[owner[failure.target]].name
                )
                ?? "Resolve \(holder) from a container tagged \"\(failure.tag)\" (or a descendant), or give "
                    + "\(failure.display) a lifetime that does not need one."
        ), about: nodes.nodes[chain[keeperIndex ?? chain.count - 1]].service)
    }

    /// The steps of `chain` (node numbers), each in the container it is resolved in.
    private func path(of chain: [Int], nodes: NodeTable) -> [PathElement] {
        chain.map { element(nodes.nodes[$0].service, in: nodes.nodes[$0].context) }
    }

    /// Whether a dependency that a synchronous factory resolves (a parameter, an `Optional`, a `Lazy`, a
    /// `Provider`) names a service only an `async` factory builds, itself or through aliases (DI-ASYNC): every
    /// resolve of the holder then fails with `asyncResolutionRequired`, also under `resolveAsync`. The service
    /// that builds it, or `nil` when nothing is wrong (an `AsyncProvider<T>`, the way out, is an edge of its own
    /// kind).
    ///
    /// Asked of every edge, so it makes nothing: the finding (`asyncOnly(_:builtBy:…)`) and its path are made only
    /// when this finds one.
    private func asyncOnlyBuilder(of target: Int, neededBy holder: Int, through position: Int) -> Int? {
        // The kinds first: an enum each, where the dependency's kind is compared by name.
        switch registrations[holder].kind {
        case .factory, .arguments: break
        case .asyncFactory, .alias: return nil
        }
        var builder = target
        for _ in 0..<Container.maximumAliasHops {
            guard case .alias = registrations[builder].kind, let next = services[builder].aliasOf else { break }
            builder = next
        }
        guard case .asyncFactory = registrations[builder].kind else { return nil }
        let ref = dependencyList[position]
        guard !ref.observed, ref.kind == .direct || ref.kind == .deferred || ref.kind == .perCall else { return nil }
        return builder
    }

    /// The DI-ASYNC finding for a dependency `asyncOnlyBuilder(of:neededBy:through:)` found; `path` leads to the
    /// holder.
    private func asyncOnly(
        _ target: Int, builtBy builder: Int, neededBy holder: Int, through position: Int, path: [PathElement],
        in context: Int, _ targetContext: Int
    ) -> Finding {
        let ref = dependencyList[position]
        let (holderName, service) = (services[holder].display, services[builder].display)
        let registered = "registerAsync at \(services[builder].location)"
        // What the parameter asks for: `T` of an `Optional<T>`, the alias type of an alias.
        let asked = ref.wrapped?.type ?? ref.type
        let provider = ServiceName.asyncProvider(of: asked)
        let message: String
        let help: String
        if ref.kind == .deferred || ref.kind == .perCall {
            let reads = ref.kind == .deferred ? "a Lazy reads synchronously" : "a Provider resolves synchronously"
            message = "\(holderName) needs \(ref.declaredType), but only an async factory builds \(service) "
                + "(\(registered)), and \(reads): injecting it always fails with asyncResolutionRequired."
            help = "Inject \(provider) instead and call `try await provider()`, or give \(service) a synchronous "
                + "factory."
        } else {
            message = "\(holderName) needs \(ref.display), which only an async factory builds (\(registered)), but "
                + "\(holderName)'s factory is synchronous: every resolve of \(holderName) fails with "
                + "asyncResolutionRequired, also under resolveAsync."
            help = "Register \(holderName) with registerAsync and resolve it there with "
                + "`try await r.resolveAsync(\(ServiceName.key(asked, name: ref.key.name)))`, inject \(provider) "
                + "instead, or give \(service) a synchronous factory."
        }
        return Finding(
            id: .async, severity: .error, service: holderName, container: containers[context].name,
            message: message, path: path + [element(target, in: targetContext)], help: help
        )
    }

    /// The nodes of the walk, numbered in the order they were found.
    struct NodeTable {
        private(set) var nodes: [Node] = []
        /// Per node: the node it was first reached from, `-1` for a top-level request.
        private(set) var predecessor: [Int] = []
        /// Per service: its node in its own container (where a kept instance always resolves), `-1` if none.
        private var ownNode: [Int]
        /// Nodes of a service resolved from another container (transient, scoped, matching).
        private var otherNodes: [Node: Int] = [:]

        init(serviceCount: Int) {
            ownNode = [Int](repeating: -1, count: serviceCount)
        }

        var count: Int { nodes.count }

        /// The nodes from a top-level request to `id`, the way `id` was first reached.
        func chain(to id: Int) -> [Int] {
            var chain: [Int] = []
            var current = id
            while current >= 0, chain.count <= nodes.count {
                chain.append(current)
                current = predecessor[current]
            }
            return chain.reversed()
        }

        /// The number of `node`, numbering it (reached from `from`) when it is new.
        mutating func intern(_ node: Node, from: Int) -> Int {
            if let existing = find(node) { return existing }
            let id = nodes.count
            nodes.append(node)
            predecessor.append(from)
            remember(node, as: id)
            return id
        }

        private func find(_ node: Node) -> Int? {
            let own = ownNode[node.service]
            if own >= 0, nodes[own].context == node.context { return own }
            return otherNodes[node]
        }

        private mutating func remember(_ node: Node, as id: Int) {
            if ownNode[node.service] == -1 { ownNode[node.service] = id } else { otherNodes[node] = id }
        }
    }

    /// The edges between the nodes of the walk, all in one array: node `i`'s successors are
    /// `targets[start[i]..<start[i + 1]]`.
    struct Adjacency {
        var start: [Int] = []
        var targets: [Int] = []
        /// Parallel to `targets`: whether the edge is deferred (`Lazy`, `Provider`).
        var deferred: [Bool] = []

        var count: Int { start.count - 1 }

        func successors(of node: Int) -> Range<Int> { start[node]..<start[node + 1] }

        /// The same graph without its deferred edges.
        var direct: Adjacency {
            var result = Adjacency()
            result.start.reserveCapacity(start.count)
            result.targets.reserveCapacity(targets.count)
            for node in 0..<count {
                result.start.append(result.targets.count)
                for edge in successors(of: node) where !deferred[edge] { result.targets.append(targets[edge]) }
            }
            result.start.append(result.targets.count)
            result.deferred = [Bool](repeating: false, count: result.targets.count)
            return result
        }
    }

    /// DI-DEFERRED-CYCLE: a note per strongly connected component that loops through a deferred edge.
    private mutating func findDeferredCycles(
        nodes: [Node], successors: Adjacency, reported: inout Set<String>
    ) {
        for component in Self.components(successors) {
            let members = Set(component)
            // The first deferred edge inside the component, in the order the nodes were found.
            var broken: (from: Int, to: Int)?
            search: for node in component.sorted() {
                for edge in successors.successors(of: node)
                where successors.deferred[edge] && members.contains(successors.targets[edge]) {
                    let target = successors.targets[edge]
                    broken = (node, target)
                    break search
                }
            }
            guard let (from, to) = broken else { continue }
            // The loop: the deferred edge, then the shortest way back from its target to its source.
            var previous: [Int: Int] = [to: to]
            var frontier = [to]
            while !frontier.isEmpty, previous[from] == nil {
                var following: [Int] = []
                for node in frontier {
                    for edge in successors.successors(of: node) {
                        let target = successors.targets[edge]
                        guard members.contains(target), previous[target] == nil else { continue }
                        previous[target] = node
                        following.append(target)
                    }
                }
                frontier = following
            }
            var loop = [from]
            var current = from
            while current != to, let back = previous[current] {
                loop.insert(back, at: 1)
                current = back
            }
            let loopServices = loop.map { nodes[$0].service }
            guard reported.insert("deferred-cycle|\(Set(loopServices).sorted())").inserted else { continue }
            let elements = (loop + [from]).map { element(nodes[$0].service, in: nodes[$0].context) }
            let names = elements.map(\.description)
            let owner = names[0]
            let target = services[nodes[to].service]
            let relationship = Self.relationshipSpelling(
                ServiceName.describe(target.label.type, name: nil), kind: self.kind(from: nodes[from], to: target)
            )
            add(Finding(
                id: .deferredCycle, severity: .note, service: owner, container: containers[nodes[from].context].name,
                message: "\(owner) and \(names[1]) need each other through a relationship: "
                    + "\(names.joined(separator: " → ")). The loop is broken by \(relationship) in \(owner), "
                    + "which resolves \(names[1]) after \(owner) is built, so it is no construction cycle.",
                path: elements,
                help: "Nothing to do if the loop is meant; reading the \(relationship) from \(owner)'s initializer or "
                    + "factory, while \(owner) is being built, would still fail with a cycle error."
            ), about: nodes[from].service)
        }
    }

    /// The relationship kind of the declared edge from `node`'s service to `target`, `.deferred` if unknown.
    private func kind(from node: Node, to target: DependencyGraph.ServiceNode) -> Dependency.Kind {
        dependencies(of: node.service).lazy.map { dependencyList[$0] }.first { ref in
            ref.kind.isDeferred && ObjectIdentifier(ref.type) == ObjectIdentifier(target.label.type)
        }?.kind ?? .deferred
    }

    /// DI-MISSING for `ref`, a dependency of `holder` that found nothing under its key from container
    /// `context` but `other`, a registration of its type and name taking other runtime arguments (or none):
    /// it fails when the holder is built, and the way out is the parameter type that fits.
    private func argumentMismatch(
        _ ref: DependencyRef, of holder: String, found other: Int, path: [PathElement], in context: Int
    ) -> Finding {
        let service = services[other]
        let type = ServiceName.readable(ref.type)
        let asked = ref.key.name == nil ? ref.declaredType : "\(ref.declaredType) for \(ref.display)"
        let arguments = service.arguments.joined(separator: ", ")
        let takes = arguments.isEmpty ? "without runtime arguments" : "with the runtime arguments (\(arguments))"
        let passed = ref.arguments.map(ServiceName.argumentList) ?? "it needs"
        let fitting = arguments.isEmpty
            ? "Inject \(type) or Provider<\(type)> instead, or register \(type) with a factory that takes the "
                + "arguments \(passed)."
            : "Inject \(ServiceName.generic("Provider", [ref.type] + registrations[other].argumentTypes)) instead."
        return Finding(
            id: .missing, severity: .error, service: ref.display, container: containers[context].name,
            message: "\(holder) needs \(asked), but \(service.display) is registered in "
                + "\(containers[service.container].name) (\(service.location)) \(takes).",
            path: path + [PathElement(missing: ref.type, name: ref.key.name, in: live[context])],
            help: fitting
        )
    }

    /// A parameter of type `type` (spelled) as the owner declares it, by the kind of its edge: `B` for a direct
    /// edge, `Lazy<B>`, `Provider<B>`, `All<B>`, or `Provider<B, String>` for an assisted edge passing
    /// `arguments` (`Provider<B, …>` when they are not known).
    static func relationshipSpelling(_ type: String, kind: Dependency.Kind, arguments: String? = nil) -> String {
        switch kind {
        case .direct: type
        case .perCall: "Provider<\(type)>"
        case .asyncPerCall: "AsyncProvider<\(type)>"
        case .assisted: "Provider<\(type), \(arguments ?? "…")>"
        case .collection: "All<\(type)>"
        default: "Lazy<\(type)>"
        }
    }

    /// DI-CYCLE: one error per distinct loop of direct edges (`successors` holds no deferred edge).
    private mutating func findCycles(nodes: [Node], successors: Adjacency, reported: inout Set<String>) {
        for component in Self.components(successors) {
            let members = Set(component)
            let first = component.min()!
            // The loop through the component from its first-found node, by breadth-first search.
            var previous: [Int: Int] = [:]
            var frontier = [first]
            var closing: Int?
            search: while !frontier.isEmpty {
                var following: [Int] = []
                for node in frontier {
                    for edge in successors.successors(of: node) {
                        let target = successors.targets[edge]
                        guard members.contains(target) else { continue }
                        if target == first { closing = node; break search }
                        if previous[target] == nil { previous[target] = node; following.append(target) }
                    }
                }
                frontier = following
            }
            var loop = [first]
            var current = closing ?? first
            while current != first {
                loop.insert(current, at: 1)
                current = previous[current] ?? first
            }
            let loopServices = loop.map { nodes[$0].service }
            guard reported.insert("cycle|\(Set(loopServices).sorted())").inserted else { continue }
            var elements = loop.map { element(nodes[$0].service, in: nodes[$0].context) }
                + [element(nodes[first].service, in: nodes[first].context)]
            // A need that is a collection's (`All<T>`) is marked: the help breaks the loop elsewhere.
            for step in 1..<elements.count
            where collectsOnly(nodes[loop[step - 1]], nodes[step < loop.count ? loop[step] : first]) {
                elements[step] = elements[step].collected()
            }
            let names = elements.map(\.description)
            let help = loop.count == 1
                ? ResolutionError.collectionLoopAdvice(closing: elements) ?? selfCycleHelp(nodes[first])
                : Self.cycleHelp(closing: elements)
            add(Finding(
                id: .cycle, severity: .error, service: names[0], container: containers[nodes[first].context].name,
                message: "\(names[0]) depends on itself: \(names.joined(separator: " → ")).",
                path: elements,
                help: help
            ), about: nodes[first].service)
        }
    }

    /// Whether `holder` needs `need` only as one of the services of an `All<T>` it takes.
    private func collectsOnly(_ holder: Node, _ need: Node) -> Bool {
        var collected = false
        for position in dependencies(of: holder.service) {
            guard case .service(let found) = resolve(dependency: position, from: holder.context), found == need.service
            else { continue }
            if !dependencyList[position].collects { return false }
            collected = true
        }
        return collected
    }

    /// The help of a DI-CYCLE of two services or more, whose `loop` ends with its first service again: it names
    /// the relationship that defers the loop's last need that is not a collection's (`All<T>`, which takes no
    /// relationship in its place) — an `AsyncProvider` for a service built by an async factory, since `Lazy` and
    /// `Provider` resolve synchronously, which such a service refuses.
    static func cycleHelp(closing loop: [PathElement]) -> String {
        // Only a build meets a relationship used too early (validate(instantiating: true)): no edge to change.
        if let advice = ResolutionError.eagerRelationshipAdvice(closing: loop) {
            return "Break the cycle: \(advice); or move what both need into a service of its own."
        }
        if let advice = ResolutionError.collectionLoopAdvice(closing: loop) { return advice }
        let index = ResolutionError.breakableStep(closing: loop)
        let (breakFrom, breakTo) = (loop[index - 1], loop[index])
        let type = ServiceName.describe(breakTo.type, name: nil)
        let deferred = breakTo.isAsync
            ? "AsyncProvider<\(type)> (a loop through it is no construction cycle)"
            : "Lazy<\(type)> or Provider<\(type)> (a loop through them is no construction cycle)"
        return "Break the cycle where \(breakFrom) needs \(breakTo): inject it as \(deferred), or move what both "
            + "need into a service of its own."
    }

    /// The help of a DI-CYCLE whose service needs itself: most often a decorator meant to wrap the registration
    /// of the same key in an ancestor, which it must take by a key of its own.
    private func selfCycleHelp(_ node: Node) -> String {
        let service = services[node.service]
        let context = containers[node.context].name
        let found = "\(service.display) needs \(service.display), which from \(context) is this same registration"
        if let parent = containers[owner[node.service]].parent,
           let shadowed = lookup(number: keyOf[node.service], from: parent)
        {
            let ancestor = containers[owner[shadowed]].name
            return "\(found). To wrap the \(service.display) that \(ancestor) registers (a decorator), take the "
                + "wrapped service by a key of its own: register it in \(ancestor) as its concrete type, with "
                + ".implements(\(ServiceName.metatype(service.label.type))) so that the rest of the graph still "
                + "finds it, and take that type here."
        }
        return "\(found): a service cannot be built from itself. Build it without one, or depend on another type "
            + "or name."
    }

    /// The strongly connected components that hold a loop (two nodes or more, or a node with an edge to
    /// itself), by Tarjan's algorithm run iteratively, ordered by their first-found node.
    static func components(_ successors: Adjacency) -> [[Int]] {
        let count = successors.count
        var index = [Int](repeating: -1, count: count)
        var low = [Int](repeating: 0, count: count)
        var onStack = [Bool](repeating: false, count: count)
        var stack: [Int] = []
        var next = 0
        var components: [[Int]] = []

        var work: [(node: Int, edge: Int)] = []
        for start in 0..<count where index[start] == -1 {
            work.append((start, successors.start[start]))
            index[start] = next; low[start] = next; next += 1
            stack.append(start); onStack[start] = true
            while let (node, edge) = work.last {
                if edge < successors.start[node + 1] {
                    work[work.count - 1].edge += 1
                    let target = successors.targets[edge]
                    if index[target] == -1 {
                        index[target] = next; low[target] = next; next += 1
                        stack.append(target); onStack[target] = true
                        work.append((target, successors.start[target]))
                    } else if onStack[target] {
                        low[node] = min(low[node], index[target])
                    }
                } else {
                    work.removeLast()
                    if let parent = work.last?.node { low[parent] = min(low[parent], low[node]) }
                    if low[node] == index[node] {
                        // Most nodes are a component of their own, without a loop: no array for them.
                        if stack.last == node {
                            stack.removeLast()
                            onStack[node] = false
                            if successors.successors(of: node).contains(where: { successors.targets[$0] == node }) {
                                components.append([node])
                            }
                            continue
                        }
                        var component: [Int] = []
                        while let top = stack.popLast() {
                            onStack[top] = false
                            component.append(top)
                            if top == node { break }
                        }
                        components.append(component)
                    }
                }
            }
        }

        return components.sorted(by: { $0.min()! < $1.min()! })
    }
}
