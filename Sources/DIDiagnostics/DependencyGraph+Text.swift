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
    /// `→ X (app) [deferred]` for `Lazy<X>`, `[per-call]` for `Provider<X>` (`[async per-call]` for an
    /// `AsyncProvider<X>`), `[assisted]` for `Provider<X, Argument>`, `[collection]` for `All<X>`. Findings are
    /// listed in brackets by ID; a graph made with `instantiating: true` also names the type each service was
    /// built as, when it differs (`[implementation: ConsoleLogger]`). A closed container is labelled `(closed)`,
    /// and a graph made from one ends with its DI-CLOSED finding. A line break or another control character
    /// in a container's or a service's name is written as its escape (`app\nmain`), so that each line of the
    /// tree stays one line.
    ///
    /// - Returns: The tree, one line per container, registration and edge, ending with a summary line.
    public func text() -> String {
        // Each type is named once, and measured once: naming a type costs more than the rest of the
        // rendering. The lines go straight into one string, which is what a caller gets anyway.
        // Names are the user's strings: one holding a line break would break the tree's lines.
        let names = services.map(\.display.onOneLine)
        let widths = names.map(\.columnWidth)
        let scopeWidths = services.map(\.scope.columnWidth)
        var text = TextBuffer(capacity: services.count * 120 + edges.count * 100)
        for (index, container) in containers.enumerated() where container.parent == nil {
            render(
                container: index, prefix: "", branch: nil, names: names, widths: (widths, scopeWidths), into: &text
            )
        }
        // A close is about the container, not one of its registrations: it has no line to be marked on.
        for finding in findings where finding.id == .closed {
            text += "\(finding.severity)[\(finding.id)]: \(finding.message)\n"
        }
        let counts = Dictionary(grouping: findings, by: \.severity)
        let errors = counts[.error]?.count ?? 0
        let warnings = counts[.warning]?.count ?? 0
        let notes = counts[.note]?.count ?? 0
        text += "\(String.counted(services.count, "registration")) in \(String.counted(containerCount, "container"))"
            + "; findings: \(String.counted(errors, "error")), \(String.counted(warnings, "warning")), "
            + "\(String.counted(notes, "note"))."
        return text.text
    }

    /// The label of a container: its name, then tags, `(ancestor)` when it is only shown for context and
    /// `(closed)` when it is closed.
    func containerLabel(_ index: Int) -> String {
        let container = containers[index]
        var label = container.name
        if !container.tags.isEmpty { label += " [tags: \(container.tags.joined(separator: ", "))]" }
        if container.isShownAsAncestor { label += " (ancestor)" }
        if container.isClosed { label += " (closed)" }
        return label
    }

    /// Appends the lines of container `index` (each ending with a newline), its registrations and edges,
    /// then its children.
    private func render(
        container index: Int,
        prefix: String,
        branch: Bool?,
        names: [String],
        widths: (names: [Int], scopes: [Int]),
        into text: inout TextBuffer
    ) {
        let container = containers[index]
        let head = branch.map { $0 ? "└── " : "├── " } ?? ""
        text += prefix
        text += head
        text += containerLabel(index).onOneLine
        text += "\n"
        let inner = prefix + (branch.map { $0 ? "    " : "│   " } ?? "")
        let width = container.services.map { widths.names[$0] }.max() ?? 0
        let scopeWidth = container.services.map { widths.scopes[$0] }.max() ?? 0
        let entries = container.services.count + container.children.count
        for (position, service) in container.services.enumerated() {
            let last = position == entries - 1
            let node = services[service]
            text += inner
            text += last ? "└── " : "├── "
            text += names[service]
            text.appendSpaces(width - widths.names[service])
            text += "  "
            text += node.scope
            text.appendSpaces(scopeWidth - widths.scopes[service])
            text += "  "
            text += node.location.fileID
            text += ":"
            text.append(node.location.line)
            if node.hasMarkers || marks[service] != nil {
                for marker in markers(of: service) {
                    text += "  ["
                    text += marker
                    text += "]"
                }
            }
            text += "\n"
            let edges = edges(from: service)
            let edgePrefix = inner + (last ? "    " : "│   ")
            for (edgePosition, edge) in zip(edges.indices, edges) {
                text += edgePrefix
                text += edgePosition == edges.endIndex - 1 ? "└── " : "├── "
                append(edge, names: names, to: &text)
                text += "\n"
            }
        }
        for (position, child) in container.children.enumerated() {
            let last = container.services.count + position == entries - 1
            render(container: child, prefix: inner, branch: last, names: names, widths: widths, into: &text)
        }
    }

    /// Markers after a registration: what it is, then the IDs of findings about it.
    func markers(of service: Int) -> [String] {
        let node = services[service]
        var result: [String] = []
        if let implementation = node.implementation { result.append("implementation: \(implementation)") }
        if !node.arguments.isEmpty { result.append("arguments: \(node.arguments.joined(separator: ", "))") }
        if node.isAsync { result.append("async") }
        if let hidden = node.shadows {
            result.append("shadows \(containers[services[hidden].container].name.onOneLine)")
        }
        result += (marks[service] ?? []).map(\.rawValue)
        return result
    }

    /// Appends `→ Logger (app)`, `→ Logger (app, observed)`, `= alias of RouterImpl (app)`,
    /// `→ Cache (missing)` or `→ Cache (app) [deferred]`.
    private func append(_ edge: Edge, names: [String], to text: inout TextBuffer) {
        if let to = edge.to {
            let place = containers[services[to].container].name.onOneLine
            switch edge.kind {
            case .alias:
                text += "= alias of "
                text += names[to]
            case .declared, .observed:
                text += "→ "
                text += edge.label.same(as: services[to].label) ? names[to] : edge.dependency.onOneLine
            }
            text += " ("
            text += place
            text += edge.kind == .observed ? ", observed)" : ")"
        } else {
            text += "→ "
            text += edge.dependency.onOneLine
            text += " (missing)"
        }
        if edge.relationship != .direct {
            text += " ["
            text += edge.relationship.description
            text += "]"
        }
    }
}
