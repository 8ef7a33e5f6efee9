import DICore

extension DependencyGraph {
    /// The version of the JSON schema `json()` writes; raised whenever a field changes meaning or goes away.
    public static let jsonSchemaVersion = 1

    /// The graph as JSON, with a `schemaVersion` field (see `jsonSchemaVersion`).
    ///
    /// ```json
    /// {
    ///   "schemaVersion": 1,
    ///   "container": "app",
    ///   "containers": [{"id": "c0", "name": "app", "tags": [], "parent": null, "ancestor": false,
    ///                   "closed": false}],
    ///   "services": [{"id": "s0", "container": "c0", "service": "Logger", "type": "Logger", "name": null,
    ///                 "scope": "singleton", "file": "App/Setup.swift", "line": 7,
    ///                 "implementation": "ConsoleLogger", "aliasOf": null,
    ///                 "arguments": [], "async": false, "edgesKnown": true, "shadows": null, "findings": []}],
    ///   "edges": [{"from": "s1", "to": "s0", "dependency": "Logger", "kind": "declared",
    ///              "relationship": "direct"}],
    ///   "findings": [{"id": "DI-MISSING", "severity": "error", "service": "…", "container": "…",
    ///                 "message": "…", "help": "…", "suggestions": [], "path": [{"service": "…",
    ///                 "container": "…", "scope": "…", "file": "…", "line": 1}]}]
    /// }
    /// ```
    ///
    /// Ids (`c0`, `s0`) are positions: containers depth first from the root, registrations in registration
    /// order. `implementation` is the type of the instance when the graph was made with
    /// `instantiating: true` and it differs from the service type, `null` otherwise. An edge's `to` is `null`
    /// when nothing provides the dependency; `kind` is `declared`, `observed` or `alias`; `relationship` is
    /// how the dependent uses it: `direct` (a plain parameter, and every observed edge), `deferred`
    /// (`Lazy<T>`), `per-call` (`Provider<T>`), `async per-call` (`AsyncProvider<T>`), `assisted`
    /// (`Provider<T, Argument>`) or `collection`
    /// (`All<T>`), and `null` for an alias edge. A container's `closed` is `true` once it is closed (its
    /// registrations are gone). Schema version 1 gained `relationship` and `closed` without a change of
    /// version: no field changed meaning.
    ///
    /// - Returns: A JSON object, keys in a fixed order, one field per line.
    public func json() -> String {
        var root: [(String, JSON)] = [
            ("schemaVersion", .number(Self.jsonSchemaVersion)),
            ("container", .string(container)),
        ]
        root.append(("containers", .array(containers.enumerated().map { index, node in
            .object([
                ("id", .string("c\(index)")),
                ("name", .string(node.name)),
                ("tags", .array(node.tags.map(JSON.string))),
                ("parent", node.parent.map { .string("c\($0)") } ?? .null),
                ("ancestor", .bool(node.isShownAsAncestor)),
                ("closed", .bool(node.isClosed)),
            ])
        })))
        root.append(("services", .array(services.enumerated().map { index, node in
            .object([
                ("id", .string("s\(index)")),
                ("container", .string("c\(node.container)")),
                ("service", .string(node.display)),
                ("type", .string(node.typeName)),
                ("name", node.name.map(JSON.string) ?? .null),
                ("scope", .string(node.scope)),
                ("file", .string(node.location.fileID)),
                ("line", .number(node.location.line)),
                ("implementation", node.implementation.map { .string(String(describing: $0)) } ?? .null),
                ("aliasOf", node.aliasOf.map { .string("s\($0)") } ?? .null),
                ("arguments", .array(node.arguments.map(JSON.string))),
                ("async", .bool(node.isAsync)),
                ("edgesKnown", .bool(node.edgesKnown)),
                ("shadows", node.shadows.map { .string("s\($0)") } ?? .null),
                ("findings", .array((marks[index] ?? []).map { .string($0.rawValue) })),
            ])
        })))
        root.append(("edges", .array(edges.map { edge in
            .object([
                ("from", .string("s\(edge.from)")),
                ("to", edge.to.map { .string("s\($0)") } ?? .null),
                ("dependency", .string(edge.dependency)),
                ("kind", .string(edge.kind.rawValue)),
                ("relationship", edge.kind == .alias ? .null : .string(edge.relationship.name)),
            ])
        })))
        root.append(("findings", .array(findings.map { finding in
            .object([
                ("id", .string(finding.id.rawValue)),
                ("severity", .string(finding.severity.description)),
                ("service", .string(finding.service)),
                ("container", .string(finding.container)),
                ("message", .string(finding.message)),
                ("help", .string(finding.help)),
                ("suggestions", .array(finding.suggestions.map(JSON.string))),
                ("path", .array(finding.path.map { step in
                    .object([
                        ("service", .string(step.description)),
                        ("container", step.container.map(JSON.string) ?? .null),
                        ("scope", step.scope.map(JSON.string) ?? .null),
                        ("file", step.location.map { .string($0.fileID) } ?? .null),
                        ("line", step.location.map { .number($0.line) } ?? .null),
                    ])
                })),
            ])
        })))
        var output = ""
        JSON.object(root).write(into: &output, indent: "")
        return output + "\n"
    }
}
