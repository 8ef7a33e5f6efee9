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
    /// The box `singleton` holds, published here too once built when the shortcut is `.singleton`: the
    /// resolve fast path then reaches it from the registration in one load, instead of through the slot.
    /// Empty until built; never replaced, since the slot is built once and never reset. A value registration
    /// (`register(_:value:)`) publishes its value's box here from the start and has no slot.
    @usableFromInline package let builtSingleton: Unsafe.AtomicReference<AnyObject>
    /// Which inlined shortcut of `Container.resolve` applies, decided once here instead of on every resolve.
    @usableFromInline package let shortcut: Shortcut
    /// The lifetime's `holderTag`: the tag of the container that holds each instance (`.matching(tag)`), read
    /// here instead of through the scope on every resolve.
    package let holderTag: String?

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
    /// A number unique to this registration in the process, never reused (DIScopes keys a custom storage's
    /// instances by it). Drawn from a process-wide counter when first asked for, not when the registration is
    /// made: a server registers a request's values on every thread, and one counter that all of them
    /// increment is a cache line the cores pass back and forth.
    package var sequence: Int {
        let drawn = assignedSequence.load(ordering: .acquiring)
        if drawn != 0 { return drawn }
        let next = Self.counter.add(1, ordering: .relaxed).newValue
        let (exchanged, original) = assignedSequence.compareExchange(
            expected: 0, desired: next, ordering: .acquiringAndReleasing
        )
        return exchanged ? next : original
    }
    private let assignedSequence = Atomic<Int>(0)
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
        aliasOf aliased: Registration? = nil,
        published value: AnyObject? = nil
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
        builtSingleton = Unsafe.AtomicReference(value)
        if case .lifetime(let lifetime) = scope.kind { holderTag = lifetime.holderTag } else { holderTag = nil }
        switch (kind, scope.kind) {
        case (.factory, .singleton) where value != nil:
            // A value: published already, nothing to build, nothing held (see `ValueBody`).
            singleton = nil
            shortcut = .singleton
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

    /// The registration of a value (`register(_:value:)`): a singleton published from the start, `box`, whose
    /// `body` (a `ValueBody`) builds nothing.
    package static func value(
        key: RegistrationKey,
        body: any ServiceBody,
        serviceType: Any.Type,
        overridable: Bool,
        location: SourceLocation,
        box: AnyObject
    ) -> Registration {
        Registration(
            key: key,
            kind: .factory,
            body: body,
            serviceType: serviceType,
            scope: .singleton,
            overridable: overridable,
            location: location,
            declaresDependencies: true,
            published: box
        )
    }

    package var name: String? { key.name }

    /// Whether this registers a value given at registration (`register(_:value:)`): published from the start,
    /// never built, and not disposed by the container that keeps it.
    package var isValue: Bool { shortcut == .singleton && singleton == nil }

    /// The lifetime as diagnostics print it: the scope's name, or `value` for a value given at registration,
    /// which a `singleton` would misdescribe (a singleton is built, and disposed by its container).
    package var lifetimeName: String { isValue ? "value" : scope.name }

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

    /// The runtime argument types as messages print them: `String, Int`.
    package var argumentList: String { argumentTypes.map(ServiceName.readable).joined(separator: ", ") }

    /// The label `resolve` passes the runtime arguments with: `argument` for one, `arguments` for more.
    package var argumentLabel: String { argumentTypes.count == 1 ? "argument" : "arguments" }

    /// What the registration takes, after "takes": `an argument (String)`, `arguments (String, Int)`, `no arguments`.
    package var argumentsTaken: String {
        switch argumentTypes.count {
        case 0: "no arguments"
        case 1: "an argument (\(argumentList))"
        default: "arguments (\(argumentList))"
        }
    }

    /// The runtime arguments as the parameters of a factory that takes them, after its resolver:
    /// `argument: String` for one, `a: String, b: Int` for more.
    package var argumentParameters: String {
        let types = argumentTypes.map(ServiceName.readable)
        guard types.count != 1 else { return "argument: \(types[0])" }
        return zip("abcdefghijklmnopqrstuvwxyz", types).map { "\($0): \($1)" }.joined(separator: ", ")
    }
}
