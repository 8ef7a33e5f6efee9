import DICore

extension DependencyGraph {
    /// The graph in Graphviz DOT: a `subgraph cluster_…` per container (nested as the containers are),
    /// a fill colour per scope, solid declared edges, dashed observed edges, dotted alias edges, and errors
    /// in red (missing dependencies become red dashed nodes). A relationship edge is labelled with its kind:
    /// `Lazy` and `Provider` edges are dashed with a hollow dot (`style=dashed, arrowhead=odot,
    /// label="deferred"`), `All` edges end in a crow's foot (`arrowhead=crow, label="collection"`).
    ///
    /// ```swift
    /// try app.graph().dot().write(toFile: "graph.dot", atomically: true, encoding: .utf8)
    /// // dot -Tsvg graph.dot -o graph.svg
    /// ```
    ///
    /// - Returns: A `digraph` that `dot -Tsvg` renders.
    public func dot() -> String {
        var lines = [
            "digraph DIToolkit {",
            "  rankdir=LR;",
            "  compound=true;",
            "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=11];",
            "  edge [fontname=\"Helvetica\", fontsize=9];",
        ]
        for (index, container) in containers.enumerated() where container.parent == nil {
            cluster(index, indent: "  ", into: &lines)
        }
        var missing = 0
        for edge in edges {
            var style: String
            switch edge.kind {
            case .declared: style = ""
            case .observed: style = "style=dashed"
            case .alias: style = "style=dotted, arrowhead=empty"
            }
            if edge.relationship.isDeferred {
                style = "style=dashed, arrowhead=odot, label=\"\(edge.relationship)\""
            } else if edge.relationship == .collection {
                style = "arrowhead=crow, label=\"\(edge.relationship)\""
            }
            if let to = edge.to {
                let attributes = style.isEmpty ? "" : " [\(style)]"
                lines.append("  s\(edge.from) -> s\(to)\(attributes);")
            } else {
                lines.append(
                    "  m\(missing) [label=\"\(Self.dotEscape(edge.dependency))\\n(missing)\", color=red, "
                        + "fontcolor=red, style=\"rounded,dashed\"];"
                )
                let extra = style.isEmpty ? "" : ", \(style)"
                lines.append("  s\(edge.from) -> m\(missing) [color=red\(extra)];")
                missing += 1
            }
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    private func cluster(_ index: Int, indent: String, into lines: inout [String]) {
        let container = containers[index]
        lines.append("\(indent)subgraph cluster_\(index) {")
        lines.append("\(indent)  label=\"\(Self.dotEscape(containerLabel(index)))\";")
        lines.append("\(indent)  style=\"rounded\(container.isShownAsAncestor ? ",dashed" : "")\";")
        for service in container.services {
            let node = services[service]
            let isError = (marks[service] ?? []).contains { id in
                findings.contains { $0.id == id && $0.severity == .error }
            }
            var parts = [node.display, node.scope]
            if let ids = marks[service], !ids.isEmpty { parts.append(ids.map(\.rawValue).joined(separator: " ")) }
            let label = parts.map { Self.dotEscape($0) }.joined(separator: "\\n")
            let colour = isError ? ", color=red, penwidth=2" : ""
            lines.append(
                "\(indent)  s\(service) [label=\"\(label)\", "
                    + "fillcolor=\"\(Self.colour(of: node.scope))\"\(colour)];"
            )
        }
        for child in container.children { cluster(child, indent: indent + "  ", into: &lines) }
        lines.append("\(indent)}")
    }

    /// A pale fill per scope, the same in DOT and Mermaid.
    static func colour(of scope: String) -> String {
        switch scope {
        case "singleton", "value": "#cfe2ff"
        case "transient": "#e9ecef"
        case "scoped": "#d1e7dd"
        case "graph": "#fff3cd"
        case "weak": "#f8d7da"
        case "cached": "#e0cffc"
        default: GraphAnalysis.matchingTag(scope) != nil ? "#cff4fc" : "#ffe5d0"
        }
    }

    static func dotEscape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            default: result.append(character)
            }
        }
        return result
    }
}
