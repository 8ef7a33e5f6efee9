import DICore

extension DependencyGraph {
    /// The container tree as text: each registration with its scope, `file:line` and markers, its edges
    /// beneath it, child containers after the registrations.
    ///
    /// ```text
    /// app
    /// ├── Logger               singleton  App/Setup.swift:7
    /// ├── Database "primary"   singleton  App/Setup.swift:9
    /// │   └── → Logger (app)
    /// └── checkout
    ///     └── Logger           transient  App/Checkout.swift:3  [shadows app]  [DI-SHADOW]
    /// ```
    ///
    /// A service that several others use is printed once, where it is registered; edges name it with the
    /// container that provides it instead of repeating it. Edges read `→ X (app)` when declared,
    /// `→ X (app, observed)` when observed while building, `= alias of X (app)` for `implements(_:)` and
    /// `→ X (missing)` when nothing provides them. A relationship edge ends with its kind:
    /// `→ X (app) [deferred]` for `Lazy<X>`, `[per-call]` for `Provider<X>`, `[assisted]` for
    /// `Provider<X, Argument>`, `[collection]` for `All<X>`. Findings are listed in brackets by ID; a graph made with
    /// `instantiating: true` also names the type each service was built as, when it differs
    /// (`[implementation: ConsoleLogger]`).
    ///
    /// - Returns: The tree, one line per container, registration and edge, ending with a summary line.
    public func text() -> String {
        var lines: [String] = []
        // Each type is named once: naming a type costs more than the rest of the rendering.
        let names = services.map(\.display)
        for (index, container) in containers.enumerated() where container.parent == nil {
            render(container: index, prefix: "", branch: nil, names: names, into: &lines)
        }
        let counts = Dictionary(grouping: findings, by: \.severity)
        let errors = counts[.error]?.count ?? 0
        let warnings = counts[.warning]?.count ?? 0
        let notes = counts[.note]?.count ?? 0
        lines.append(
            "\(services.count) registration\(services.count == 1 ? "" : "s") in \(containers.count) "
                + "container\(containers.count == 1 ? "" : "s"); findings: \(errors) error\(errors == 1 ? "" : "s"), "
                + "\(warnings) warning\(warnings == 1 ? "" : "s"), \(notes) note\(notes == 1 ? "" : "s")."
        )
        return lines.joined(separator: "\n")
    }

    /// The label of a container: its name, then tags and `(ancestor)` when it is only shown for context.
    func containerLabel(_ index: Int) -> String {
        let container = containers[index]
        var label = container.name
        if !container.tags.isEmpty { label += " [tags: \(container.tags.joined(separator: ", "))]" }
        if container.isAncestor { label += " (ancestor)" }
        return label
    }

    private func render(
        container index: Int,
        prefix: String,
        branch: Bool?,
        names: [String],
        into lines: inout [String]
    ) {
        let container = containers[index]
        let head = branch.map { $0 ? "└── " : "├── " } ?? ""
        lines.append(prefix + head + containerLabel(index))
        let inner = prefix + (branch.map { $0 ? "    " : "│   " } ?? "")
        let width = container.services.map { names[$0].count }.max() ?? 0
        let scopeWidth = container.services.map { services[$0].scope.count }.max() ?? 0
        let entries = container.services.count + container.children.count
        for (position, service) in container.services.enumerated() {
            let last = position == entries - 1
            let node = services[service]
            var line = inner + (last ? "└── " : "├── ") + names[service].padded(to: width) + "  "
                + node.scope.padded(to: scopeWidth) + "  \(node.location)"
            line += markers(of: service).map { "  [\($0)]" }.joined()
            lines.append(line)
            let edges = edges(from: service)
            let edgePrefix = inner + (last ? "    " : "│   ")
            for (edgePosition, edge) in edges.enumerated() {
                let twig = edgePosition == edges.count - 1 ? "└── " : "├── "
                lines.append(edgePrefix + twig + describe(edge, names: names))
            }
        }
        for (position, child) in container.children.enumerated() {
            let last = container.services.count + position == entries - 1
            render(container: child, prefix: inner, branch: last, names: names, into: &lines)
        }
    }

    /// Markers after a registration: what it is, then the IDs of findings about it.
    func markers(of service: Int) -> [String] {
        let node = services[service]
        var result: [String] = []
        if let implementation = node.implementation { result.append("implementation: \(implementation)") }
        if !node.arguments.isEmpty { result.append("arguments: \(node.arguments.joined(separator: ", "))") }
        if node.isAsync { result.append("async") }
        if let hidden = node.shadows { result.append("shadows \(containers[services[hidden].container].name)") }
        result += (marks[service] ?? []).map(\.rawValue)
        return result
    }

    /// `→ Logger (app)`, `→ Logger (app, observed)`, `= alias of RouterImpl (app)`, `→ Cache (missing)`,
    /// `→ Cache (app) [deferred]`.
    func describe(_ edge: Edge, names: [String]) -> String {
        let base = describeTarget(edge, names: names)
        return edge.relationship == .direct ? base : "\(base) [\(edge.relationship)]"
    }

    private func describeTarget(_ edge: Edge, names: [String]) -> String {
        guard let to = edge.to else { return "→ \(edge.dependency) (missing)" }
        let place = containers[services[to].container].name
        let dependency = edge.label.same(as: services[to].label) ? names[to] : edge.dependency
        switch edge.kind {
        case .alias: return "= alias of \(names[to]) (\(place))"
        case .declared: return "→ \(dependency) (\(place))"
        case .observed: return "→ \(dependency) (\(place), observed)"
        }
    }
}
