import DICore

/// The dependency graph of a container tree: containers, registrations, the edges between them and what
/// validation found; one model with four renderings, `text()`, `dot()`, `mermaid()` and `json()`.
///
/// A graph is a snapshot: it keeps no container alive and does not change when the containers do. Every
/// rendering is deterministic (the same registrations give the same string), so tests can compare them
/// with committed files.
///
/// ```swift
/// let graph = app.graph()
/// print(graph.text())
/// try graph.dot().write(toFile: "graph.dot", atomically: true, encoding: .utf8)   // dot -Tsvg graph.dot
/// ```
///
/// The graph covers the container it was made from, its ancestors (so every edge has somewhere to point)
/// and its descendants. Edges are **declared** (the parameters of `autoregister`, known without running
/// anything), **observed** (recorded while a factory ran, by `validate(instantiating: true)`) or **alias**
/// edges (`implements(_:)`). A declared edge keeps its relationship: a parameter typed `Lazy<T>`,
/// `Provider<T>`, `AsyncProvider<T>`, `Provider<T, Argument>` or `All<T>` is drawn as a `deferred`, `per-call`,
/// `async per-call`, `assisted` or `collection` edge to `T` (for `All<T>`, one to each registration of `T` it
/// collects, under every name), apart from plain edges. A registration made with a closure factory that was
/// never seen running has unknown edges and is marked opaque.
public struct DependencyGraph: Sendable {
    struct ContainerNode: Sendable {
        let name: String
        let tags: [String]
        let parent: Int?
        var children: [Int] = []
        var services: [Int] = []
        /// Whether the container is an ancestor of the one the graph was made from (shown for context).
        let isAncestor: Bool
        /// Whether the container is closed: it resolves nothing, and its registrations are gone.
        let isClosed: Bool
        /// Whether the node holds a test container's own registrations, drawn above the levels of its base
        /// (which they override): part of the test container, not a container of the tree.
        var isTestOverrides = false
        /// Whether the node is an ancestor's, drawn for context: the test's own registrations, drawn above the
        /// ancestors they override, are not.
        var isShownAsAncestor: Bool { isAncestor && !isTestOverrides }
    }

    /// How many ancestors of the asked container `containers` show, the test's own registrations apart.
    static func ancestorCount(_ containers: [ContainerNode]) -> Int {
        containers.count(where: \.isShownAsAncestor)
    }

    struct ServiceNode: Sendable {
        let container: Int
        let label: ServiceLabel
        let scope: String
        let location: SourceLocation
        let aliasOf: Int?
        let arguments: [String]
        let isAsync: Bool
        let edgesKnown: Bool
        let shadows: Int?
        /// The type of the instance, when the graph was made by building it and it differs from the
        /// service type (`ConsoleLogger` behind `any Logger`).
        let implementation: Any.Type?

        var display: String { label.text }
        var typeName: String { ServiceName.readable(label.type) }
        var name: String? { label.name }
        /// Whether the text rendering prints anything after its `file:line` besides finding IDs.
        var hasMarkers: Bool { implementation != nil || !arguments.isEmpty || isAsync || shadows != nil }
    }

    enum EdgeKind: String, Sendable {
        case declared
        case observed
        case alias
    }

    struct Edge: Sendable {
        let from: Int
        /// The service the dependency resolves to from the dependent's container, `nil` when none does.
        let to: Int?
        /// The dependency as written: `Database "primary"`.
        let label: ServiceLabel
        let kind: EdgeKind
        /// How the dependent uses it: `.direct`, or through a relationship (`Lazy`, `Provider`, `All`).
        var relationship: Dependency.Kind = .direct

        var dependency: String { label.text }
    }

    /// The name of the container the graph was made from.
    public let container: String
    let containers: [ContainerNode]
    let services: [ServiceNode]
    let edges: [Edge]
    /// What validation found, in report order.
    public let findings: [Finding]
    /// The IDs of the findings about each service, by service index.
    let marks: [Int: [Finding.ID]]

    /// How many registrations the graph holds, in every container it covers.
    public var registrationCount: Int { services.count }

    /// How many containers the graph covers. A test container's own registrations, drawn as a node of their
    /// own above its base's containers, are counted with the test container.
    public var containerCount: Int { containers.count { !$0.isTestOverrides } }

    /// The edges leaving service `index`, in the order they were found.
    func edges(from index: Int) -> ArraySlice<Edge> {
        edgesByService[edgeStart[index]..<edgeStart[index + 1]]
    }

    /// `edges` ordered by the service they leave (the analysis makes them in that order already), and
    /// where each service's begin: service `i`'s are `edgesByService[edgeStart[i]..<edgeStart[i + 1]]`.
    private let edgesByService: [Edge]
    private let edgeStart: [Int]

    init(
        container: String,
        containers: [ContainerNode],
        services: [ServiceNode],
        edges: [Edge],
        findings: [Finding],
        marks: [Int: [Finding.ID]]
    ) {
        self.container = container
        self.containers = containers
        self.services = services
        self.edges = edges
        self.findings = findings
        self.marks = marks
        let ordered = zip(edges, edges.dropFirst()).allSatisfy { $0.from <= $1.from }
        edgesByService = ordered ? edges : edges.enumerated().sorted {
            ($0.element.from, $0.offset) < ($1.element.from, $1.offset)
        }.map(\.element)
        var start = [Int](repeating: 0, count: services.count + 1)
        for edge in edgesByService { start[edge.from + 1] += 1 }
        for index in services.indices { start[index + 1] += start[index] }
        edgeStart = start
    }
}
