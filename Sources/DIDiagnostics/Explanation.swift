import DICore

/// What provides one service as a container sees it; `Container.explain(_:name:)` makes one.
///
/// Its description is a short page:
///
/// ```text
/// Repository, as checkout resolves it
///   provided by:  app (App/Setup.swift:14)
///   lookup:       checkout (not here) → app (found)
///   scope:        singleton; the instance is held by app, its dependencies come from app
///   shadows:      nothing
///   dependencies: Database "primary" (app, declared)
///   dependents:   ViewModel (checkout)
/// ```
///
/// ```swift
/// print(checkout.explain(Repository.self))
/// ```
public struct Explanation: Sendable, CustomStringConvertible {
    /// The service as people write it: `Logger "primary"`.
    public let service: String
    /// The container that was asked.
    public let container: String
    /// The container whose registration answers, `nil` when nothing does.
    public let provider: String?
    /// Where that registration was made.
    public let location: SourceLocation?
    /// Its scope's name (`singleton`, `matching("session")`, …).
    public let scope: String?
    /// The containers looked at, asking container first, up to the provider (or the root).
    public let lookupChain: [String]
    /// The registrations of the same key that the provider hides, nearest first (`Logger in app (…)`).
    public let shadows: [String]
    /// The registrations of the same key in descendants of the asked container, which hide this one there.
    public let shadowedBy: [String]
    /// What it depends on, each with the container that provides it (or `missing`) and how the edge is
    /// known; a relationship adds its kind: `Back (app, declared, deferred)` for `Lazy<Back>`.
    public let dependencies: [String]
    /// The services that depend on it.
    public let dependents: [String]
    /// Close matches, when nothing provides it.
    public let suggestions: [String]
    /// The IDs of validation findings about it.
    public let findings: [Finding.ID]
    /// Why nothing provides it because of a close — of the asked container, an ancestor, or a test
    /// container's base — and the way out; `nil` when nothing on the lookup path is closed.
    public let closed: (problem: String, help: String)?
    /// For a `.matching(tag)` service: whether a container on the asked container's path has the tag, without
    /// which resolving it from there fails (`scopeUnavailable`); `true` for every other scope.
    let hasItsPlace: Bool
    /// For a `.matching(tag)` service without its place: a container's tag a few edits from `tag`, and the
    /// container (the tag was probably mistyped).
    let meantTag: (tag: String, container: String)?

    init<Service>(_ type: Service.Type, name: String?, in container: Container) {
        let key = RegistrationKey(type, name: name)
        service = Dependency(type, name: name).description
        self.container = container.name
        var analysis = GraphAnalysis(container)
        let graph = analysis.run()
        let asked = analysis.askedIndex
        let found = analysis.lookup(key, from: asked)
        var chain: [String] = []
        var current: Int? = asked
        while let index = current {
            chain.append(analysis.containers[index].name)
            if let found, analysis.services[found].container == index { break }
            current = analysis.containers[index].parent
        }
        lookupChain = chain
        // A closed container refuses every lookup, even of what its open ancestors register; a test container
        // over a closed base still resolves what its own tree registers.
        let refusesEverything = container.isClosed
        guard let found, !refusesEverything else {
            hasItsPlace = true
            meantTag = nil
            closed = container.closedDiagnosis
            provider = nil
            location = nil
            scope = nil
            shadows = []
            shadowedBy = []
            dependencies = []
            dependents = []
            findings = []
            // A closed container's close matches would point at registrations that are gone.
            suggestions = closed == nil ? LookupContext(container: container, key: key, type: type).suggestions() : []
            return
        }
        let node = analysis.services[found]
        let names = analysis.containers.map(\.name)
        provider = names[node.container]
        location = node.location
        scope = node.scope
        // The walk DI-MATCHING makes: `nil` for a `.matching(tag)` service with no tagged container on the path.
        hasItsPlace = analysis.context(of: found, requestedFrom: asked) != nil
        meantTag = hasItsPlace ? nil : GraphAnalysis.matchingTag(node.scope).flatMap(analysis.containerTagged(closeTo:))
            .map { ($0.tag, $0.container.name) }
        suggestions = []
        closed = nil
        var hidden: [String] = []
        var next = node.shadows
        while let index = next {
            let service = analysis.services[index]
            hidden.append("\(service.display) in \(names[service.container]) (\(service.location))")
            next = service.shadows
        }
        shadows = hidden
        shadowedBy = analysis.services.enumerated().filter { index, service in
            service.container > asked && analysis.registrations[index].key == key
        }.map { "\($0.element.display) in \(names[$0.element.container]) (\($0.element.location))" }
        dependencies = graph.edges(from: found).map { edge in
            let place = edge.to.map { names[analysis.services[$0].container] } ?? "missing"
            let relationship = edge.relationship == .direct ? "" : ", \(edge.relationship)"
            return "\(edge.dependency) (\(place), \(edge.kind.rawValue)\(relationship))"
        }
        dependents = graph.edges.filter { $0.to == found }.map {
            let service = analysis.services[$0.from]
            return "\(service.display) (\(names[service.container]))"
        }
        findings = graph.marks[found] ?? []
    }

    /// Who holds the instance and where its dependencies come from, for a scope.
    private static func holding(_ scope: String, provider: String, asked: String) -> String {
        switch scope {
        case "transient": return "a new instance on every resolve, held by nobody; its dependencies come from "
            + "the asking container (\(asked))"
        case "singleton", "cached":
            return "the instance is held by \(provider), its dependencies come from \(provider)"
        case "value":
            return "the instance given to register(_:value:), handed out by \(provider) as it was given: never "
                + "built, and not disposed when \(provider) closes"
        case "weak": return "the instance is held weakly by \(provider) while someone else holds it; its "
            + "dependencies come from \(provider)"
        case "scoped": return "one instance per asking container (here \(asked)), which holds it"
        case "graph": return "one instance per top-level resolve; its dependencies come from \(asked)"
        default:
            if let tag = GraphAnalysis.matchingTag(scope) {
                return "one instance per nearest container tagged \"\(tag)\", which holds it"
            }
            return "a custom lifetime decides who holds the instance"
        }
    }

    /// The page: provider, lookup chain, scope and holder, shadows, dependencies, dependents, findings.
    public var description: String {
        var lines = ["\(service), as \(container) resolves it"]
        let width = 14
        func row(_ label: String, _ value: String) { lines.append("  " + "\(label):".padded(to: width) + value) }
        guard let provider, let location, let scope else {
            if let closed {
                row("provided by", "nothing: \(closed.problem)")
                row("help", closed.help)
                return lines.joined(separator: "\n")
            }
            row("provided by", "nothing: it is not registered in \(lookupChain.joined(separator: " → "))")
            if !suggestions.isEmpty {
                lines.append("  did you mean:")
                lines += suggestions.map { "    - \($0)" }
            }
            return lines.joined(separator: "\n")
        }
        row("provided by", "\(provider) (\(location))")
        row("lookup", lookupChain.enumerated().map { index, name in
            index == lookupChain.count - 1 ? "\(name) (found)" : "\(name) (not here)"
        }.joined(separator: " → "))
        var holding = Self.holding(scope, provider: provider, asked: container)
        if !hasItsPlace, let tag = GraphAnalysis.matchingTag(scope) {
            holding += "; no container from \(container) up is tagged \"\(tag)\", so resolving it from \(container) "
                + "fails: resolve it from a container made with tags: [\"\(tag)\"], or from one of its descendants"
            if let (meant, tagged) = meantTag {
                holding += " (\(tagged) is tagged \"\(meant)\": if that was meant, register it with "
                    + ".matching(\"\(meant)\"))"
            }
        }
        row("scope", "\(scope); " + holding)
        row("shadows", shadows.isEmpty ? "nothing" : shadows.joined(separator: "; "))
        if !shadowedBy.isEmpty { row("shadowed by", shadowedBy.joined(separator: "; ")) }
        row("dependencies", dependencies.isEmpty ? "none known" : dependencies.joined(separator: ", "))
        row("dependents", dependents.isEmpty ? "none known" : dependents.joined(separator: ", "))
        if !findings.isEmpty { row("findings", findings.map(\.rawValue).joined(separator: ", ")) }
        return lines.joined(separator: "\n")
    }
}
