/// How long an instance lives, who holds it, and which container resolves its own dependencies.
///
/// DICore defines the two lifetimes every container needs; `DIScopes` adds `.scoped`, `.graph`, `.weak`,
/// `.cached`, `.matching(_:)` and custom scopes as further static members, so call sites read the same
/// whichever module a lifetime comes from:
///
/// ```swift
/// try app.register(Cache.self) { _ in Cache() }                            // .transient
/// try app.register(Logger.self, scope: .singleton) { _ in ConsoleLogger() }
/// ```
///
/// | scope | instances | held by | its dependencies come from |
/// |---|---|---|---|
/// | `.transient` | new on every resolve | nobody | the container that was asked |
/// | `.singleton` | one per registering container | the registering container | the registering container |
///
/// A parent's singleton never captures a child's override: its dependencies always come from the container
/// it was registered in, whichever child asked first.
public struct Scope: Sendable, Hashable, CustomStringConvertible {
    @usableFromInline
    package enum Kind: Sendable {
        case transient
        case singleton
        case lifetime(any LifetimeStrategy)
    }

    @usableFromInline package let kind: Kind
    /// The name shown in diagnostics: `transient`, `singleton`, `scoped`, `matching("session")`, ….
    public let name: String

    @usableFromInline
    init(kind: Kind, name: String) {
        self.kind = kind
        self.name = name
    }

    /// Creates a scope backed by a lifetime strategy; how `DIScopes` adds its lifetimes.
    package init(name: String, lifetime: any LifetimeStrategy) {
        self.init(kind: .lifetime(lifetime), name: name)
    }

    /// A new instance on every resolve, held by nobody; dependencies come from the container that was asked.
    public static let transient = Scope(kind: .transient, name: "transient")

    /// One instance per registering container, built once even under concurrent first access and kept
    /// until the container is released; dependencies come from the registering container.
    public static let singleton = Scope(kind: .singleton, name: "singleton")

    /// Whether the container keeps instances of this scope beyond one resolve (and shares them across threads).
    public var keepsInstances: Bool {
        switch kind {
        case .transient: false
        case .singleton: true
        case .lifetime(let lifetime): lifetime.keepsInstances
        }
    }

    /// Whether a lifetime strategy (`DIScopes`) decides where instances live.
    package var hasLifetimeStrategy: Bool {
        if case .lifetime = kind { return true }
        return false
    }

    /// The scope's name: `singleton`, `matching("session")`, ….
    public var description: String { name }

    /// Scopes are equal when their names are: `.matching("a")` and `.matching("b")` differ.
    public static func == (lhs: Scope, rhs: Scope) -> Bool { lhs.name == rhs.name }

    /// Hashes the name.
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}
