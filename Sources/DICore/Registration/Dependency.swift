import Synchronization

/// A statically known dependency of a registration (from `autoregister`), drawn as a graph edge.
///
/// A parameter typed as a relationship (`Lazy<T>`, `Provider<T>`, `Provider<T, Argument>`, `All<T>`) is
/// recorded as a dependency on `T` of that relationship's ``Kind``, so that diagnostics can draw it apart
/// from a plain edge and know that a loop through a deferred edge is no construction cycle:
///
/// ```swift
/// try app.autoregister(Checkout.self, initializer: Checkout.init)   // init(payments: Lazy<any PaymentService>)
/// // dependencies: [Dependency((any PaymentService).self, kind: .deferred)]
/// ```
public struct Dependency: Sendable, Hashable, CustomStringConvertible {
    /// How the owner depends on the type: built with it, or through a relationship.
    ///
    /// A struct with static members, so that kinds can be added without breaking `switch`es.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        /// The kind's name, as printed.
        public let name: String

        /// Resolved when the owner is built (a plain parameter).
        public static let direct = Kind(name: "direct")
        /// Resolved on first use, then kept (`Lazy<T>`): the owner is built without it.
        public static let deferred = Kind(name: "deferred")
        /// Resolved again on every call (`Provider<T>`), honouring `T`'s lifetime.
        public static let perCall = Kind(name: "per-call")
        /// Resolved again on every call, awaited (`AsyncProvider<T>`): the one relationship an `async`-only
        /// service can be injected through into a synchronous factory.
        public static let asyncPerCall = Kind(name: "async per-call")
        /// Resolved on every call with runtime arguments (`Provider<T, Argument>`).
        public static let assisted = Kind(name: "assisted")
        /// Every registration of the type, when the owner is built (`All<T>`).
        public static let collection = Kind(name: "collection")

        /// The kind's name, as printed: `deferred`.
        public var description: String { name }

        /// Whether the owner can be built before the dependency: a loop through such an edge is no
        /// construction cycle.
        public var isDeferred: Bool {
            self == .deferred || self == .perCall || self == .asyncPerCall || self == .assisted
        }
    }

    /// The type that will be resolved (for a relationship, the type it resolves: `T` of `Lazy<T>`).
    public let type: Any.Type
    /// The registration name, `nil` for the unnamed registration.
    public let name: String?
    /// How the owner depends on `type`; `.direct` unless the parameter is a relationship.
    public let kind: Kind
    /// The runtime arguments an assisted `Provider<T, A, B>` passes, as one type (`(A, B)`, or `A` alone);
    /// `nil` for every other kind, and for an assisted dependency declared by hand without them (which then
    /// matches a registration of `type` taking any arguments).
    public let arguments: Any.Type?
    /// Whether the owner depends on every registration of `type`, under every name, as an `All<T>` does — also
    /// through another relationship (`Lazy<All<T>>`, recorded with the `Lazy`'s kind): none is missing then.
    package var collects: Bool

    /// Creates a dependency on `type` registered under `name`.
    ///
    /// ```swift
    /// Dependency(Logger.self)
    /// Dependency(Database.self, name: "primary", kind: .deferred)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type that will be resolved.
    ///   - name: The registration name, `nil` for the unnamed registration.
    ///   - kind: How the owner depends on it; `.direct` by default.
    ///   - arguments: For an assisted dependency, the type of the runtime arguments it passes (`(String,
    ///     Int).self`, or `String.self` for one); `nil` otherwise.
    public init(_ type: Any.Type, name: String? = nil, kind: Kind = .direct, arguments: Any.Type? = nil) {
        self.type = type
        self.name = name
        self.kind = kind
        self.arguments = arguments
        collects = kind == .collection
    }

    /// The same dependency under `name`: of the same kind, with the same arguments, collecting or not.
    package func named(_ name: String?) -> Dependency {
        var named = Dependency(type, name: name, kind: kind, arguments: arguments)
        named.collects = collects
        return named
    }

    /// `Database "primary"`, or `Database "primary" (deferred)` for a relationship edge.
    public var description: String {
        let service = ServiceName.describe(type, name: name)
        return kind == .direct ? service : "\(service) (\(kind))"
    }

    /// Two dependencies are equal when they name the same type under the same name, of the same kind, with the
    /// same arguments, collecting or not.
    public static func == (lhs: Dependency, rhs: Dependency) -> Bool {
        ObjectIdentifier(lhs.type) == ObjectIdentifier(rhs.type) && lhs.name == rhs.name && lhs.kind == rhs.kind
            && lhs.arguments.map(ObjectIdentifier.init) == rhs.arguments.map(ObjectIdentifier.init)
            && lhs.collects == rhs.collects
    }

    /// Hashes the type's identity, the name, the kind, the arguments' type and whether it collects.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(type))
        hasher.combine(name)
        hasher.combine(kind)
        hasher.combine(arguments.map(ObjectIdentifier.init))
        hasher.combine(collects)
    }
}
