import DICore
import DIScopes
import Foundation

/// A service of the random graphs: it keeps how to use each of its parameters.
package protocol Part: AnyObject, Sendable {
    var uses: [@Sendable () throws -> [any Part]] { get }
    init(_ uses: [@Sendable () throws -> [any Part]])
}

package final class Node<Tag>: Part {
    package let uses: [@Sendable () throws -> [any Part]]
    package init(_ uses: [@Sendable () throws -> [any Part]]) { self.uses = uses }
}

package enum N0 {}
package enum N1 {}
package enum N2 {}
package enum N3 {}
/// The implementations of the two registrations of `any Part` that an `All<any Part>` collects.
package enum PX {}
package enum PY {}

/// A parameter type and how to use a value of it.
struct Parameter<Value: Sendable>: Sendable {
    let use: @Sendable (Value) throws -> [any Part]
}

/// Gets a `Parameter` whose type was chosen at run time.
protocol ParameterVisitor {
    func visit<Value: Sendable>(_ parameter: Parameter<Value>) throws
}

package struct RandomGraph: CustomStringConvertible {
    /// How a service takes one of its parameters.
    package enum Edge: CustomStringConvertible {
        case plain(Int), lazy(Int), provider(Int), optional(Int), providerOfLazy(Int), all, lazyAll

        package static func random(using random: inout SplitMix64) -> Edge {
            let target = Int.random(in: 0..<RandomGraph.nodeTypes.count, using: &random)
            return [.plain(target), .plain(target), .lazy(target), .provider(target), .optional(target),
                    .providerOfLazy(target), .all, .lazyAll].randomElement(using: &random)!
        }

        package var description: String {
            switch self {
            case .plain(let i): "N\(i)"
            case .lazy(let i): "Lazy<N\(i)>"
            case .provider(let i): "Provider<N\(i)>"
            case .optional(let i): "N\(i)?"
            case .providerOfLazy(let i): "Provider<Lazy<N\(i)>>"
            case .all: "All<any Part>"
            case .lazyAll: "Lazy<All<any Part>>"
            }
        }

        func visit(_ visitor: some ParameterVisitor) throws {
            switch self {
            case .plain(let i): try Self.plain(RandomGraph.nodeTypes[i], visitor)
            case .lazy(let i): try Self.lazy(RandomGraph.nodeTypes[i], visitor)
            case .provider(let i): try Self.provider(RandomGraph.nodeTypes[i], visitor)
            case .optional(let i): try Self.optional(RandomGraph.nodeTypes[i], visitor)
            case .providerOfLazy(let i): try Self.providerOfLazy(RandomGraph.nodeTypes[i], visitor)
            case .all: try visitor.visit(Parameter<All<any Part>> { Array($0) })
            case .lazyAll: try visitor.visit(Parameter<Lazy<All<any Part>>> { Array(try $0.value) })
            }
        }

        private static func plain<T: Part>(_: T.Type, _ visitor: some ParameterVisitor) throws {
            try visitor.visit(Parameter<T> { [$0] })
        }
        private static func lazy<T: Part>(_: T.Type, _ visitor: some ParameterVisitor) throws {
            try visitor.visit(Parameter<Lazy<T>> { [try $0.value] })
        }
        private static func provider<T: Part>(_: T.Type, _ visitor: some ParameterVisitor) throws {
            try visitor.visit(Parameter<Provider<T>> { [try $0()] })
        }
        private static func optional<T: Part>(_: T.Type, _ visitor: some ParameterVisitor) throws {
            try visitor.visit(Parameter<T?> { $0.map { [$0] } ?? [] })
        }
        private static func providerOfLazy<T: Part>(_: T.Type, _ visitor: some ParameterVisitor) throws {
            try visitor.visit(Parameter<Provider<Lazy<T>>> { [try $0().value] })
        }
    }

    /// One registration: where, with which lifetime, taking which parameters.
    package struct Service {
        /// 0: app, 1: request (tagged `request`), 2: inner (a child of request, tagged `session` or not).
        package var level: Int
        package var scope: String
        package var edges: [Edge]
        /// Whether it is also registered as `any Part` under the name `alias`, which an `All<any Part>` collects.
        package var aliased: Bool
        /// Whether it is registered with a closure that resolves its parameters (its edges unknown until it runs)
        /// rather than with `autoregister`.
        package var opaque = false
    }

    /// The seed of a round: `DI_FUZZ_SEED` when it is set (to replay a failure), else a new random one.
    package static var seed: UInt64 {
        ProcessInfo.processInfo.environment["DI_FUZZ_SEED"].flatMap { UInt64($0) } ?? .random(in: 1...UInt64.max)
    }

    package static let nodeTypes: [any Part.Type] = [Node<N0>.self, Node<N1>.self, Node<N2>.self, Node<N3>.self]

    /// `N0`…`N3` (`nil`: not registered), then the plugins `x` and `y`.
    package var services: [Service?]
    /// For each, a registration of the same key in a container below, which overrides it there (`nil`: none).
    package var overrides: [Service?]
    /// Whether the inner container is tagged `session`.
    package var innerIsSession: Bool
    /// Whether some registrations are closures (see `Service.opaque`), for `validate(instantiating: true)`.
    package let withClosures: Bool

    package init(withClosures: Bool = false, using random: inout SplitMix64) {
        self.withClosures = withClosures
        func service(at level: Int, aliased: Bool) -> Service {
            Service(
                level: level,
                scope: ["transient", "singleton", "request", "session", "scoped", "cached", "weak"]
                    .randomElement(using: &random)!,
                edges: (0..<Int.random(in: 0...2, using: &random)).map { _ in Edge.random(using: &random) },
                aliased: aliased,
                opaque: withClosures && Bool.random(using: &random)
            )
        }
        services = (0..<6).map { index in
            if index < 4, Int.random(in: 0..<8, using: &random) == 0 { return nil }
            return service(
                at: [0, 0, 0, 0, 1, 2].randomElement(using: &random)!,
                aliased: index < 4 && Int.random(in: 0..<4, using: &random) == 0
            )
        }
        overrides = services.map { primary in
            guard let primary, primary.level < 2, Int.random(in: 0..<4, using: &random) == 0 else { return nil }
            return service(at: Int.random(in: (primary.level + 1)...2, using: &random), aliased: false)
        }
        innerIsSession = Bool.random(using: &random)
    }

    package var description: String {
        services.indices.map { index in
            guard let service = services[index] else { return "\(Self.key(index)): not registered" }
            let alias = service.aliased ? ", also as any Part \"alias\(index)\"" : ""
            return Self.describe(service, as: index) + alias
                + (overrides[index].map { "\n" + Self.describe($0, as: index) } ?? "")
        }.joined(separator: "\n") + "\ninner is tagged session: \(innerIsSession)"
    }

    /// The `index`th key, as its registrations are printed: `N0`…`N3`, `any Part "x"`, `any Part "y"`.
    package static func key(_ index: Int) -> String {
        index < 4 ? "N\(index)" : "any Part \"\(pluginName(index))\""
    }

    /// The name of the plugin registered as the `index`th key (4 or 5).
    static func pluginName(_ index: Int) -> String { index == 4 ? "x" : "y" }

    /// `service`, registered as the `index`th key: `N0: singleton in app taking (Lazy<N1>) by a closure`.
    package static func describe(_ service: Service, as index: Int) -> String {
        "\(key(index)): \(service.scope) in \(["app", "request", "inner"][service.level]) taking "
            + "(\(service.edges.map(\.description).joined(separator: ", ")))" + (service.opaque ? " by a closure" : "")
    }

    /// The registration of the `index`th key that the container at `level` sees: the override, when it is at or
    /// above that container, else the primary one, when it is.
    package func seen(_ index: Int, at level: Int) -> Service? {
        overrides[index].flatMap { $0.level <= level ? $0 : nil }
            ?? services[index].flatMap { $0.level <= level ? $0 : nil }
    }

    /// What an agreement test prints when `report` and `failures` disagree: the round, its seed (for
    /// `DI_FUZZ_SEED`), the graph, what else the test made (`setting`), what failed and the report.
    package func disagreement(
        round: Int, seed: UInt64, setting: String = "", failures: [String], report: some CustomStringConvertible
    ) -> String {
        "round \(round) seed \(seed)\n\(self)\n" + (setting.isEmpty ? "" : setting + "\n") + "failures:\n"
            + failures.joined(separator: "\n") + "\n\(report)"
    }

    /// The app container, its child tagged `request` and that one's child, with the graph registered.
    package func make() throws -> [Container] {
        let app = Container(name: "app")
        let request = app.child(name: "request", tags: ["request"])
        let containers = [app, request, request.child(name: "inner", tags: innerIsSession ? ["session"] : [])]
        for (index, service) in zip(Array(services.indices) + services.indices, services + overrides) {
            guard let service else { continue }
            try Self.register(index, service, in: containers[service.level])
        }
        return containers
    }

    /// Registers `service` as the `index`th key (`N0`…`N3`, then the plugins `x` and `y`) in `container`.
    package static func register(_ index: Int, _ service: Service, in container: Container) throws {
        let scope: Scope = switch service.scope {
        case "singleton": .singleton
        case "request": .matching("request")
        case "session": .matching("session")
        case "scoped": .scoped
        case "cached": .cached
        case "weak": .weak
        default: .transient
        }
        switch index {
        case 0..<4:
            try register(
                nodeTypes[index], service.edges, scope: scope, alias: service.aliased ? "alias\(index)" : nil,
                opaque: service.opaque, in: container
            )
        default:
            let plugin: any Part.Type = index == 4 ? Node<PX>.self : Node<PY>.self
            try register(
                key: (any Part).self, name: pluginName(index), service.edges, scope: scope, opaque: service.opaque,
                in: container
            ) { plugin.init($0) }
        }
    }

    /// Registers `T`, and, under the name `alias`, as `any Part` too (which an `All<any Part>` collects).
    private static func register<T: Part>(
        _: T.Type, _ edges: [Edge], scope: Scope, alias: String?, opaque: Bool, in container: Container
    ) throws {
        try register(key: T.self, name: nil, edges, scope: scope, alias: alias, opaque: opaque, in: container) {
            T($0)
        }
    }

    private static func register<Key: Sendable>(
        key: Key.Type, name: String?, _ edges: [Edge], scope: Scope, alias: String? = nil, opaque: Bool,
        in container: Container, make: @escaping @Sendable ([@Sendable () throws -> [any Part]]) -> Key
    ) throws {
        let place = Place(container: container, name: name, scope: scope, alias: alias, opaque: opaque)
        switch edges.count {
        case 0:
            try place.register { make([]) }
        case 1:
            try edges[0].visit(One(place: place, make: make))
        default:
            try edges[0].visit(FirstOfTwo(place: place, second: edges[1], make: make))
        }
    }

    /// Where and how a registration is made.
    struct Place {
        let container: Container, name: String?, scope: Scope, alias: String?, opaque: Bool

        /// Registers `Key`, built by `make` with no parameters.
        func register<Key: Sendable>(_ make: @escaping @Sendable () -> Key) throws {
            try alias(opaque
                ? container.register(Key.self, name: name, scope: scope) { _ in make() }
                : container.autoregister(Key.self, name: name, scope: scope) { make() })
        }

        /// Registers `Key`, built by `make` from a parameter: with `autoregister` (its type declared), or, when
        /// opaque, with a closure that resolves it.
        func register<Key: Sendable, Value: Sendable>(_ make: @escaping @Sendable (Value) -> Key) throws {
            try alias(opaque
                ? container.register(Key.self, name: name, scope: scope) { make(try $0.resolve(Value.self)) }
                : container.autoregister(Key.self, name: name, scope: scope) { (value: Value) in make(value) })
        }

        /// The same with two parameters.
        func register<Key: Sendable, First: Sendable, Second: Sendable>(
            _ make: @escaping @Sendable (First, Second) -> Key
        ) throws {
            try alias(opaque
                ? container.register(Key.self, name: name, scope: scope) {
                    make(try $0.resolve(First.self), try $0.resolve(Second.self))
                }
                : container.autoregister(Key.self, name: name, scope: scope) { (one: First, two: Second) in
                    make(one, two)
                })
        }

        private func alias<Key>(_ handle: RegistrationHandle<Key>) throws {
            if let alias { try handle.implements((any Part).self, name: alias) }
        }
    }

    struct One<Key: Sendable>: ParameterVisitor {
        let place: Place
        let make: @Sendable ([@Sendable () throws -> [any Part]]) -> Key

        func visit<Value: Sendable>(_ parameter: Parameter<Value>) throws {
            let make = make
            try place.register { (value: Value) in make([{ try parameter.use(value) }]) }
        }
    }

    struct FirstOfTwo<Key: Sendable>: ParameterVisitor {
        let place: Place, second: Edge
        let make: @Sendable ([@Sendable () throws -> [any Part]]) -> Key

        func visit<Value: Sendable>(_ parameter: Parameter<Value>) throws {
            try second.visit(Two(place: place, first: parameter, make: make))
        }
    }

    struct Two<Key: Sendable, First: Sendable>: ParameterVisitor {
        let place: Place, first: Parameter<First>
        let make: @Sendable ([@Sendable () throws -> [any Part]]) -> Key

        func visit<Value: Sendable>(_ parameter: Parameter<Value>) throws {
            let (make, first) = (make, first)
            try place.register { (one: First, two: Value) in
                make([{ try first.use(one) }, { try parameter.use(two) }])
            }
        }
    }

    /// What fails when every service is resolved from every container that sees it (a request service from the
    /// request container only), and then used: its relationships read, called or iterated, and what they give
    /// used in turn (to a few levels, since a `Provider` of a transient in a loop gives new instances forever).
    package func failures(in containers: [Container]) -> [String] {
        containers.indices.flatMap { level in
            failures(asking: containers[level], seenAt: level) { seen($0, at: level) }
        }
    }

    /// What fails when `container` — which sees the graph as the container at `level` does, but for `seen`, the
    /// registration it resolves for each key — is asked for each of those and each alias, which are then used. A
    /// `.matching(tag)` service is asked only of a container with its tag on the path: asking another for it is
    /// the caller's mistake, which no graph can show (the services that need one are checked).
    ///
    /// An alias resolves the registration of its target key that the alias's own container sees; `aliasTarget`
    /// says which that is when it is not the primary one (a test container's own registration, which every level
    /// of its base sees first).
    package func failures(
        asking container: Container, seenAt level: Int, aliasTarget: (Int) -> Service? = { _ in nil },
        seen: (Int) -> Service?
    ) -> [String] {
        var failures: [String] = []
        for index in services.indices {
            let name = index < 4 ? Self.key(index) : Self.pluginName(index)
            var asks: [(String, () throws -> any Part)] = []
            if let service = seen(index), hasItsTag(service.scope, from: level) {
                asks.append((name, {
                    index < 4 ? try Self.resolve(Self.nodeTypes[index], from: container)
                        : try container.resolve((any Part).self, name: name)
                }))
            }
            // The alias resolves the primary registration, looked up where the alias is registered.
            if let primary = services[index], primary.aliased, primary.level <= level,
               hasItsTag((aliasTarget(index) ?? primary).scope, from: level)
            {
                asks.append(("alias\(index)", { try container.resolve((any Part).self, name: "alias\(index)") }))
            }
            for (asked, resolve) in asks {
                do {
                    var seen = Set<ObjectIdentifier>()
                    try Self.use(resolve(), depth: 0, seen: &seen)
                } catch {
                    failures.append("\(asked) from \(container.name): \("\(error)".prefix(400))")
                }
            }
        }
        return failures
    }

    /// Whether a service of lifetime `scope` has a container of its tag on the path from container `level`.
    private func hasItsTag(_ scope: String, from level: Int) -> Bool {
        switch scope {
        case "request": level >= 1
        case "session": level == 2 && innerIsSession
        default: true
        }
    }

    private static func resolve<T: Part>(_: T.Type, from container: Container) throws -> any Part {
        try container.resolve(T.self)
    }

    private static func use(_ part: any Part, depth: Int, seen: inout Set<ObjectIdentifier>) throws {
        guard depth < 8, seen.insert(ObjectIdentifier(part)).inserted else { return }
        for use in part.uses {
            for next in try use() { try Self.use(next, depth: depth + 1, seen: &seen) }
        }
    }
}
