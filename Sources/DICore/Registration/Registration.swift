import Synchronization

/// One registered way to make a service: its key, lifetime, factory and where it was written.
///
/// Immutable once made; the instance slot of a `.singleton` registration lives here, so instances are keyed
/// by registration and never by the type they produce.
@usableFromInline
package final class Registration: Sendable {
    @usableFromInline
    package enum Kind: Sendable {
        /// A synchronous factory: `body` is a `FactoryBox<Service>`.
        case factory
        /// An `async` factory: `body` is an `AsyncFactoryBox<Service>`.
        case asyncFactory
        /// A factory taking runtime arguments: `body` is an `ArgumentFactoryBox<Service, each Argument>`.
        case arguments
        /// Another registration seen as a further type: `body` is an `AliasBox<Alias>`. It names the other
        /// registration by key, so that re-registering that key moves the alias along to the new registration
        /// (and nothing keeps the replaced one alive).
        case alias(of: RegistrationKey)
    }

    @usableFromInline package let key: RegistrationKey
    @usableFromInline package let kind: Kind
    /// The typed factory (`FactoryBox`, `AsyncFactoryBox`, `ArgumentFactoryBox`) or `AliasBox`.
    @usableFromInline package let body: any ServiceBody
    /// The instance slot of a `.singleton` registration, read without a lock once built.
    @usableFromInline package let singleton: InstanceSlot?
    /// Which inlined shortcut of `Container.resolve` applies, decided once here instead of on every resolve.
    @usableFromInline package let shortcut: Shortcut

    @usableFromInline
    package enum Shortcut: UInt8, Sendable {
        /// A synchronous `.transient` factory: call it directly.
        case transient
        /// A synchronous `.singleton` factory: return the published instance once built.
        case singleton
        /// Everything else goes through the general path.
        case none
    }

    /// The type the registration answers for (the key's type, or the alias type).
    package let serviceType: Any.Type
    /// The types of the runtime arguments, for messages.
    package let argumentTypes: [Any.Type]
    package let scope: Scope
    package let overridable: Bool
    package let location: SourceLocation
    /// Dependencies known without running the factory (`autoregister`), for diagnostics.
    package let dependencies: [Dependency]
    /// Whether `dependencies` is the whole list (`autoregister`, even with no parameters); `false` for a
    /// closure factory, whose dependencies diagnostics cannot see without running it.
    package let declaresDependencies: Bool
    /// A number unique to this registration in the process, increasing in creation order (DIScopes keys
    /// instances by it).
    package let sequence: Int
    /// The `ServiceKeys` property name for keypath registrations, for messages.
    package let keyPathName: String?
    /// For an alias, the service type of the registration it was made from, for messages.
    package let aliasedType: Any.Type?
    /// Whether instances are built by an `async` factory; for an alias, whether the registration it was
    /// made from was (for descriptions: the engine asks the live target).
    package let isAsync: Bool

    private static let counter = Atomic<Int>(0)

    package init(
        key: RegistrationKey,
        kind: Kind,
        body: any ServiceBody,
        serviceType: Any.Type,
        argumentTypes: [Any.Type] = [],
        scope: Scope,
        overridable: Bool,
        location: SourceLocation,
        dependencies: [Dependency] = [],
        declaresDependencies: Bool = false,
        keyPathName: String? = nil,
        aliasOf aliased: Registration? = nil
    ) {
        self.key = key
        self.kind = kind
        self.body = body
        self.serviceType = serviceType
        self.argumentTypes = argumentTypes
        self.scope = scope
        self.overridable = overridable
        self.location = location
        self.dependencies = dependencies
        self.declaresDependencies = declaresDependencies || !dependencies.isEmpty
        self.keyPathName = keyPathName
        self.aliasedType = aliased.map { $0.aliasedType ?? $0.serviceType }
        switch kind {
        case .asyncFactory: isAsync = true
        case .alias: isAsync = aliased?.isAsync ?? false
        default: isAsync = false
        }
        self.sequence = Self.counter.add(1, ordering: .relaxed).newValue
        switch (kind, scope.kind) {
        case (.alias, _):
            singleton = nil
            shortcut = .none
        case (_, .singleton):
            singleton = InstanceSlot(retention: .strong, lockFreeReads: true)
            if case .factory = kind { shortcut = .singleton } else { shortcut = .none }
        case (.factory, .transient):
            singleton = nil
            shortcut = .transient
        default:
            singleton = nil
            shortcut = .none
        }
    }

    package var name: String? { key.name }

    /// For an alias, the key of the registration it stands for.
    package var aliasTarget: RegistrationKey? {
        if case .alias(let key) = kind { return key }
        return nil
    }

    /// `Logger "primary"` — the service as people write it.
    package var displayName: String {
        if let keyPathName { return "\\.\(keyPathName)" }
        return ServiceName.describe(serviceType, name: key.name)
    }
}

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
        /// Resolved on every call with runtime arguments (`Provider<T, Argument>`).
        public static let assisted = Kind(name: "assisted")
        /// Every registration of the type, when the owner is built (`All<T>`).
        public static let collection = Kind(name: "collection")

        /// The kind's name, as printed: `deferred`.
        public var description: String { name }

        /// Whether the owner can be built before the dependency: a loop through such an edge is no
        /// construction cycle.
        public var isDeferred: Bool { self == .deferred || self == .perCall || self == .assisted }
    }

    /// The type that will be resolved (for a relationship, the type it resolves: `T` of `Lazy<T>`).
    public let type: Any.Type
    /// The registration name, `nil` for the unnamed registration.
    public let name: String?
    /// How the owner depends on `type`; `.direct` unless the parameter is a relationship.
    public let kind: Kind

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
    public init(_ type: Any.Type, name: String? = nil, kind: Kind = .direct) {
        self.type = type
        self.name = name
        self.kind = kind
    }

    /// `Database "primary"`, or `Database "primary" (deferred)` for a relationship edge.
    public var description: String {
        let service = ServiceName.describe(type, name: name)
        return kind == .direct ? service : "\(service) (\(kind))"
    }

    /// Two dependencies are equal when they name the same type under the same name, of the same kind.
    public static func == (lhs: Dependency, rhs: Dependency) -> Bool {
        ObjectIdentifier(lhs.type) == ObjectIdentifier(rhs.type) && lhs.name == rhs.name && lhs.kind == rhs.kind
    }

    /// Hashes the type's identity, the name and the kind.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(type))
        hasher.combine(name)
        hasher.combine(kind)
    }
}

/// Readable names for types and keys in messages.
package enum ServiceName {
    /// `Logger`, `Logger "primary"`, `any Plugin`.
    package static func describe(_ type: Any.Type, name: String?) -> String {
        let typeName = readable(type)
        guard let name else { return typeName }
        return "\(typeName) \"\(name)\""
    }

    /// Names already spelled out, by metatype (metatypes live as long as the process): naming a generic type
    /// costs microseconds, and diagnostics name the same types again and again.
    private static let spelled = Lock<[ObjectIdentifier: String]>([:])

    /// The type as written in Swift (`readable(_:)`), spelled out once per type.
    package static func readable(_ type: Any.Type) -> String {
        let id = ObjectIdentifier(type)
        if let known = spelled.withLock({ $0[id] }) { return known }
        let text = spell(type)
        spelled.withLock { $0[id] = text }
        return text
    }

    /// The type as written in Swift: the runtime prints a parameter pack as `Pack{…}`
    /// (`Provider<Report, Pack{String}>`), people write `Provider<Report, String>`.
    private static func spell(_ type: Any.Type) -> String {
        let text = String(describing: type)
        guard text.contains("Pack{") else { return text }
        var result = ""
        var depth = 0
        var packDepths: [Int] = []
        var index = text.startIndex
        while index < text.endIndex {
            if text[index...].hasPrefix("Pack{") {
                let inside = text.index(index, offsetBy: 5)
                if inside < text.endIndex, text[inside] == "}" {
                    if result.hasSuffix(", ") { result.removeLast(2) }
                    index = text.index(after: inside)
                    continue
                }
                depth += 1
                packDepths.append(depth)
                index = inside
                continue
            }
            let character = text[index]
            index = text.index(after: index)
            if character == "{" { depth += 1 }
            if character == "}" {
                defer { depth -= 1 }
                if packDepths.last == depth {
                    packDepths.removeLast()
                    continue
                }
            }
            result.append(character)
        }
        return result
    }
}
