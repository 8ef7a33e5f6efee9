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

    /// The scope's name: `singleton`, `matching("session")`, ….
    public var description: String { name }

    /// Scopes are equal when their names are: `.matching("a")` and `.matching("b")` differ.
    public static func == (lhs: Scope, rhs: Scope) -> Bool { lhs.name == rhs.name }

    /// Hashes the name.
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

/// Where an instance of a registration comes from for one request; decided by a `LifetimeStrategy`.
@usableFromInline
package enum LifetimePlacement: Sendable {
    /// Build a new instance, resolving its dependencies from `dependencies`.
    case build(dependencies: Container)
    /// Use the instance in `slot`, building it once with dependencies from `dependencies`; the built instance
    /// is recorded as held by `holder` (which disposes it when closed) unless the slot holds it weakly.
    case slot(InstanceSlot, holder: Container, dependencies: Container)
    /// Let `provider` decide: it gets the build (with dependencies from `dependencies`) and returns the box to
    /// hand out. Nobody holds the instance for disposal unless the provider arranges it (`.graph`, `.weak` and
    /// custom storages of `DIScopes`).
    case provided(by: any InstanceProvider, dependencies: Container)
}

/// Hands out the instance of a registration for one request, given the engine's way to build it; for
/// lifetimes that keep instances somewhere else than a container's held slots.
@usableFromInline
package protocol InstanceProvider: Sendable {
    /// The box to hand out; `build` runs the factory on the active resolution path.
    func instance(of registration: Registration, resolution: ResolutionScope, build: () throws -> AnyObject)
        throws -> AnyObject

    /// The box to hand out for an `async` resolution.
    func instance(
        of registration: Registration,
        resolution: ResolutionScope,
        build: () async throws -> AnyObject
    ) async throws -> AnyObject
}

/// The extension point behind `Scope`: the lifetimes of `DIScopes` conform to it.
@usableFromInline
package protocol LifetimeStrategy: Sendable {
    /// Whether instances outlive one resolve and are shared across threads.
    var keepsInstances: Bool { get }

    /// Checks a registration when it is made; `.weak`, for instance, refuses value types.
    func validate(_ registration: Registration) throws(RegistrationError)

    /// Checks a registration when it is made in `container` (named in messages); what `add` calls. By default
    /// it calls `validate(_:)`.
    func validate(_ registration: Registration, in container: Container) throws(RegistrationError)

    /// Decides, for one request, which slot holds the instance and which container builds it.
    func placement(
        for registration: Registration,
        registeredIn: Container,
        requestedFrom: Container,
        resolution: ResolutionScope
    ) throws -> LifetimePlacement

    /// Called when `registration`, made in `container`, stops being served: it was replaced, or `container` is
    /// being closed. Returns the instances the lifetime kept outside held slots (custom storages), to dispose.
    func release(_ registration: Registration, in container: Container) -> [Any]
}

extension LifetimeStrategy {
    package func validate(_ registration: Registration) throws(RegistrationError) {}

    package func validate(_ registration: Registration, in container: Container) throws(RegistrationError) {
        try validate(registration)
    }

    package func release(_ registration: Registration, in container: Container) -> [Any] { [] }
}
