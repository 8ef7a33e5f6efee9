import DICore

extension DependencyGraph {
    /// The graph as a Mermaid `flowchart` with a `subgraph` per container, as GitHub renders it in Markdown.
    ///
    /// Declared edges are solid (`-->`), observed edges dotted (`-.->`), aliases thick (`==>`); relationship
    /// edges carry their kind: dotted for `Lazy` and `Provider` (`-.->|deferred|`, `-.->|per-call|`,
    /// `-.->|assisted|`), solid for `All` (`-->|collection|`). A class per
    /// scope colours the nodes, and services with an error finding get the `finding` class (red border).
    ///
    /// ```swift
    /// print("```mermaid\n\(app.graph().mermaid())```")
    /// ```
    ///
    /// - Returns: Mermaid source starting with `flowchart LR`.
    public func mermaid() -> String {
        var lines = ["flowchart LR"]
        for (index, container) in containers.enumerated() where container.parent == nil {
            subgraph(index, indent: "  ", into: &lines)
        }
        var missing = 0
        for edge in edges {
            var arrow: String
            switch edge.kind {
            case .declared: arrow = "-->"
            case .observed: arrow = "-.->"
            case .alias: arrow = "==>"
            }
            if edge.relationship.isDeferred {
                arrow = "-.->|\(edge.relationship)|"
            } else if edge.relationship == .collection {
                arrow = "-->|\(edge.relationship)|"
            }
            if let to = edge.to {
                lines.append("  s\(edge.from) \(arrow) s\(to)")
            } else {
                lines.append("  m\(missing)[\"\(Self.mermaidEscape(edge.dependency))<br/>(missing)\"]:::missing")
                lines.append("  s\(edge.from) \(arrow) m\(missing)")
                missing += 1
            }
        }
        let scopes = Array(Set(services.map(\.scope))).sorted()
        for scope in scopes {
            lines.append("  classDef \(Self.className(scope)) fill:\(Self.colour(of: scope)),stroke:#555")
        }
        lines.append("  classDef finding stroke:#d00,stroke-width:2px")
        lines.append("  classDef missing fill:#fff,stroke:#d00,stroke-dasharray:4,color:#d00")
        for scope in scopes {
            let members = services.indices.filter { services[$0].scope == scope }.map { "s\($0)" }
            lines.append("  class \(members.joined(separator: ",")) \(Self.className(scope))")
        }
        let flagged = services.indices.filter { index in
            (marks[index] ?? []).contains { id in findings.contains { $0.id == id && $0.severity == .error } }
        }
        if !flagged.isEmpty { lines.append("  class \(flagged.map { "s\($0)" }.joined(separator: ",")) finding") }
        return lines.joined(separator: "\n") + "\n"
    }

    private func subgraph(_ index: Int, indent: String, into lines: inout [String]) {
        let container = containers[index]
        lines.append("\(indent)subgraph c\(index)[\"\(Self.mermaidEscape(containerLabel(index)))\"]")
        for service in container.services {
            let node = services[service]
            var label = "\(Self.mermaidEscape(node.display))<br/>\(Self.mermaidEscape(node.scope))"
            if let ids = marks[service], !ids.isEmpty { label += "<br/>" + ids.map(\.rawValue).joined(separator: " ") }
            lines.append("\(indent)  s\(service)[\"\(label)\"]")
        }
        for child in container.children { subgraph(child, indent: indent + "  ", into: &lines) }
        lines.append("\(indent)end")
    }

    /// `scope_matching_session` for `matching("session")`: class names are identifiers.
    static func className(_ scope: String) -> String {
        "scope_" + String(scope.map { $0.isLetter || $0.isNumber ? $0 : "_" })
    }

    /// `text` inside a quoted Mermaid label: `#` starts an entity there, so it is written as one first; quotes and
    /// angle brackets as entities; a line break (a name may hold one) as `<br/>`, as the label's own lines are.
    static func mermaidEscape(_ text: String) -> String {
        text.replacingOccurrences("#", with: "#35;").replacingOccurrences("\"", with: "#quot;")
            .replacingOccurrences("<", with: "#lt;").replacingOccurrences(">", with: "#gt;")
            .replacingOccurrences("\r\n", with: "<br/>").replacingOccurrences("\n", with: "<br/>")
            .replacingOccurrences("\r", with: "<br/>")
    }
}
