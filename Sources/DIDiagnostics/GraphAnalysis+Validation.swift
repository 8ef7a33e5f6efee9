import DICore

extension GraphAnalysis {
    /// A node of the validation: a service, and the container its dependencies come from.
    struct Node: Hashable {
        let service: Int
        let context: Int
    }

    /// Runs every check and returns the graph with its findings.
    mutating func run() -> DependencyGraph {
        var edges: [DependencyGraph.Edge] = []
        for (index, service) in services.enumerated() {
            if let target = service.aliasOf {
                edges.append(.init(from: index, to: target, label: services[target].label, kind: .alias))
            }
            for ref in dependencies[index] {
                let to: Int?
                switch resolve(ref, from: service.container) {
                case .service(let found): to = found
                case .absent: continue
                // An empty collection is valid: `All<T>` of nothing resolves to no instances.
                case .missing where ref.kind == .collection: continue
                case .missing: to = nil
                }
                edges.append(.init(
                    from: index, to: to, label: ref.label, kind: ref.observed ? .observed : .declared,
                    relationship: ref.kind
                ))
            }
        }
        checkShadows()
        walk()
        checkOpaque()
        let report = ValidationReport(
            findings: findings, container: asked.name, containerCount: live.count - askedIndex,
            registrationCount: services.count
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

    /// DI-OPAQUE: one note listing the registrations whose edges are unknown.
    private mutating func checkOpaque() {
        let opaque = services.indices.filter { services[$0].container >= askedIndex && !services[$0].edgesKnown }
        guard !opaque.isEmpty else { return }
        let count = opaque.count
        let listed = opaque.prefix(20).map {
            "\(services[$0].display) in \(containers[services[$0].container].name) (\(services[$0].location))"
        }
        let more = count > 20 ? ["… and \(count - 20) more"] : []
        findings.append(Finding(
            id: .opaque, severity: .note, service: "\(count) registration\(count == 1 ? "" : "s")",
            container: asked.name,
            message: "\(count) registration\(count == 1 ? " has" : "s have") dependencies that cannot be seen "
                + "without running \(count == 1 ? "its factory" : "their factories"); "
                + "they were not checked for missing dependencies, cycles or captives: "
                + (listed + more).joined(separator: "; ") + ".",
            help: "Register them with autoregister(_:initializer:), or run validate(instantiating: true) to "
                + "observe what their factories resolve."
        ))
        for index in opaque { marks[index, default: []].append(.opaque) }
    }

    /// Follows every edge from every container of the validated subtree: DI-MISSING, DI-MATCHING, DI-CAPTIVE,
    /// then DI-CYCLE and DI-DEFERRED-CYCLE on the strongly connected components of what was reached.
    ///
    /// A relationship to a missing type is DI-MISSING (it fails when injected), except `All<T>`: an empty
    /// collection is valid.
    private mutating func walk() {
        var nodeIndex: [Node: Int] = [:]
        var nodes: [Node] = []
        var predecessor: [Int?] = []
        var successors: [[Int]] = []
        /// Per node, parallel to `successors`: whether the edge is deferred (`Lazy`, `Provider`).
        var deferred: [[Bool]] = []
        var reported = Set<String>()
        var queue: [Int] = []
        var head = 0

        func intern(_ node: Node, from: Int?) -> Int {
            if let existing = nodeIndex[node] { return existing }
            let id = nodes.count
            nodeIndex[node] = id
            nodes.append(node)
            predecessor.append(from)
            successors.append([])
            deferred.append([])
            queue.append(id)
            return id
        }

        func path(to id: Int) -> [PathElement] {
            var chain: [Int] = []
            var current: Int? = id
            while let node = current, chain.count <= nodes.count {
                chain.append(node)
                current = predecessor[node]
            }
            return chain.reversed().map { element(nodes[$0].service, in: nodes[$0].context) }
        }

        // Every service visible from every container of the subtree is a possible top-level request.
        for container in askedIndex..<live.count {
            var seen = Set<RegistrationKey>()
            var current: Int? = container
            while let owner = current {
                for service in containers[owner].services where seen.insert(registrations[service].key).inserted {
                    guard let context = context(of: service, requestedFrom: container) else { continue }
                    _ = intern(Node(service: service, context: context), from: nil)
                }
                current = containers[owner].parent
            }
            while head < queue.count {
                let id = queue[head]
                head += 1
                let node = nodes[id]
                let holder = services[node.service]
                var targets: [(service: Int, label: ServiceLabel, kind: Dependency.Kind)] = []
                if let alias = holder.aliasOf { targets.append((alias, services[alias].label, .direct)) }
                for ref in dependencies[node.service] {
                    switch resolve(ref, from: node.context) {
                    case .service(let found):
                        targets.append((found, ref.label, ref.kind))
                    case .absent:
                        continue
                    case .missing where ref.kind == .collection:
                        continue
                    case .missing:
                        guard reported.insert("missing|\(node.service)|\(ref.display)").inserted else { continue }
                        let context = LookupContext(container: live[node.context], key: ref.key, type: ref.type)
                        let searched = live[node.context].ancestry.map(\.name).joined(separator: " → ")
                        let missing = PathElement(missing: ref.type, name: ref.key.name, in: live[node.context])
                        add(Finding(
                            id: .missing, severity: .error, service: ref.display,
                            container: containers[node.context].name,
                            message: "\(holder.display) needs \(ref.display), which is not registered in "
                                + "\(containers[node.context].name) or an ancestor (searched \(searched)).",
                            path: path(to: id) + [missing],
                            suggestions: context.suggestions(),
                            help: context.fix(code: .notRegistered) ?? "Register \(ref.display)."
                        ), about: node.service)
                    }
                }
                for (target, label, kind) in targets {
                    let dependency = services[target]
                    var display: String { label.text }
                    guard let targetContext = context(of: target, requestedFrom: node.context) else {
                        guard reported.insert("matching|\(node.service)|\(target)|\(node.context)").inserted
                        else { continue }
                        let tag = Self.matchingTag(dependency.scope) ?? "?"
                        let from = containers[node.context].name
                        add(Finding(
                            id: .matching, severity: .error, service: dependency.display, container: from,
                            message: "\(holder.display) needs \(display), whose lifetime is \(dependency.scope), but "
                                + "no container on the path from \(from) is tagged \"\(tag)\".",
                            path: path(to: id) + [element(target, in: node.context)],
                            help: "Resolve \(holder.display) from a container tagged \"\(tag)\" (or a descendant), "
                                + "or give \(display) a lifetime that does not need one."
                        ), about: node.service)
                        continue
                    }
                    let next = intern(Node(service: target, context: targetContext), from: id)
                    successors[id].append(next)
                    deferred[id].append(kind.isDeferred)
                    // A Provider resolves again on every call: it keeps nothing captive.
                    if holder.aliasOf != target, kind != .perCall, kind != .assisted,
                       Self.isCaptive(holder: holder.scope, dependency: dependency.scope),
                       reported.insert("captive|\(node.service)|\(target)").inserted
                    {
                        add(Finding(
                            id: .captive, severity: .warning, service: holder.display,
                            container: containers[node.context].name,
                            message: "\(holder.display) (\(holder.scope)) keeps \(display) (\(dependency.scope)), "
                                + "which should not outlive it: the \(holder.scope) instance holds one "
                                + "\(display) for as long as it lives.",
                            path: path(to: id) + [element(target, in: targetContext)],
                            help: "Give \(display) a lifetime at least as long as \(holder.scope), or inject a "
                                + "factory (a closure or a Provider) and resolve \(display) when it is needed."
                        ), about: node.service)
                    }
                }
            }
        }
        // A loop through a deferred edge is no construction cycle: only direct edges make DI-CYCLE errors.
        let direct = successors.indices.map { node in
            successors[node].indices.filter { !deferred[node][$0] }.map { successors[node][$0] }
        }
        findCycles(nodes: nodes, successors: direct, reported: &reported)
        findDeferredCycles(nodes: nodes, successors: successors, deferred: deferred, reported: &reported)
    }

    /// DI-DEFERRED-CYCLE: a note per strongly connected component that loops through a deferred edge.
    private mutating func findDeferredCycles(
        nodes: [Node], successors: [[Int]], deferred: [[Bool]], reported: inout Set<String>
    ) {
        for component in Self.components(successors) {
            let members = Set(component)
            // The first deferred edge inside the component, in the order the nodes were found.
            var broken: (from: Int, to: Int)?
            search: for node in component.sorted() {
                for (position, target) in successors[node].enumerated()
                where deferred[node][position] && members.contains(target) {
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
                    for target in successors[node] where members.contains(target) && previous[target] == nil {
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
                help: "Nothing to do if the loop is meant; reading the \(relationship) while \(names[1]) is being "
                    + "built (from its initializer) would still fail with a cycle error."
            ), about: nodes[from].service)
        }
    }

    /// The relationship kind of the declared edge from `node`'s service to `target`, `.deferred` if unknown.
    private func kind(from node: Node, to target: DependencyGraph.ServiceNode) -> Dependency.Kind {
        dependencies[node.service].first { ref in
            ref.kind.isDeferred && ObjectIdentifier(ref.type) == ObjectIdentifier(target.label.type)
        }?.kind ?? .deferred
    }

    /// `Lazy<B>`, `Provider<B>`, or `Provider<B, …>` for an assisted edge.
    static func relationshipSpelling(_ type: String, kind: Dependency.Kind) -> String {
        switch kind {
        case .perCall: "Provider<\(type)>"
        case .assisted: "Provider<\(type), …>"
        default: "Lazy<\(type)>"
        }
    }

    /// DI-CYCLE: one error per distinct loop of direct edges (`successors` holds no deferred edge).
    private mutating func findCycles(nodes: [Node], successors: [[Int]], reported: inout Set<String>) {
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
                    for target in successors[node] where members.contains(target) {
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
            let elements = loop.map { element(nodes[$0].service, in: nodes[$0].context) }
                + [element(nodes[first].service, in: nodes[first].context)]
            let names = elements.map(\.description)
            let breakFrom = names[names.count - 2]
            let breakTo = names[names.count - 1]
            let type = ServiceName.describe(services[nodes[first].service].label.type, name: nil)
            add(Finding(
                id: .cycle, severity: .error, service: names[0], container: containers[nodes[first].context].name,
                message: "\(names[0]) depends on itself: \(names.joined(separator: " → ")).",
                path: elements,
                help: "Break the cycle where \(breakFrom) needs \(breakTo): inject it as Lazy<\(type)> or "
                    + "Provider<\(type)> (a loop through them is no construction cycle), or move what both need "
                    + "into a service of its own."
            ), about: nodes[first].service)
        }
    }

    /// The strongly connected components that hold a loop (two nodes or more, or a node with an edge to
    /// itself), by Tarjan's algorithm run iteratively, ordered by their first-found node.
    static func components(_ successors: [[Int]]) -> [[Int]] {
        let count = successors.count
        var index = [Int](repeating: -1, count: count)
        var low = [Int](repeating: 0, count: count)
        var onStack = [Bool](repeating: false, count: count)
        var stack: [Int] = []
        var next = 0
        var components: [[Int]] = []

        for start in 0..<count where index[start] == -1 {
            var work: [(node: Int, edge: Int)] = [(start, 0)]
            index[start] = next; low[start] = next; next += 1
            stack.append(start); onStack[start] = true
            while let (node, edge) = work.last {
                if edge < successors[node].count {
                    work[work.count - 1].edge += 1
                    let target = successors[node][edge]
                    if index[target] == -1 {
                        index[target] = next; low[target] = next; next += 1
                        stack.append(target); onStack[target] = true
                        work.append((target, 0))
                    } else if onStack[target] {
                        low[node] = min(low[node], index[target])
                    }
                } else {
                    work.removeLast()
                    if let parent = work.last?.node { low[parent] = min(low[parent], low[node]) }
                    if low[node] == index[node] {
                        var component: [Int] = []
                        while let top = stack.popLast() {
                            onStack[top] = false
                            component.append(top)
                            if top == node { break }
                        }
                        let selfLoop = component.count == 1 && successors[node].contains(node)
                        if component.count > 1 || selfLoop { components.append(component) }
                    }
                }
            }
        }

        return components.sorted(by: { $0.min()! < $1.min()! })
    }
}
