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
        /// Another registration seen as a further type: `body` is an `AliasBox<Alias>`.
        case alias(Registration)
    }

    @usableFromInline package let key: RegistrationKey
    @usableFromInline package let kind: Kind
    @usableFromInline package let body: any AnyObject & Sendable
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
    /// Global registration order: earlier registrations sort first.
    package let sequence: Int
    /// How to box, unbox and describe instances without knowing their type statically.
    package let erased: ErasedService
    /// The `ServiceKeys` property name for keypath registrations, for messages.
    package let keyPathName: String?

    private static let counter = Atomic<Int>(0)

    package init(
        key: RegistrationKey,
        kind: Kind,
        body: any AnyObject & Sendable,
        serviceType: Any.Type,
        argumentTypes: [Any.Type] = [],
        scope: Scope,
        overridable: Bool,
        location: SourceLocation,
        dependencies: [Dependency] = [],
        erased: ErasedService,
        keyPathName: String? = nil
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
        self.erased = erased
        self.keyPathName = keyPathName
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

    package var isAsync: Bool {
        switch kind {
        case .asyncFactory: true
        case .alias(let target): target.isAsync
        default: false
        }
    }

    /// The registration that actually builds instances (itself, or an alias's target).
    package var target: Registration {
        if case .alias(let target) = kind { return target.target }
        return self
    }

    /// `Logger "primary"` — the service as people write it.
    package var displayName: String {
        if let keyPathName { return "\\.\(keyPathName)" }
        return ServiceName.describe(serviceType, name: key.name)
    }
}

/// A statically known dependency of a registration (from `autoregister`), drawn as a graph edge.
public struct Dependency: Sendable, Hashable, CustomStringConvertible {
    /// The type that will be resolved.
    public let type: Any.Type
    /// The registration name, `nil` for the unnamed registration.
    public let name: String?

    /// Creates a dependency on `type` registered under `name`.
    public init(_ type: Any.Type, name: String? = nil) {
        self.type = type
        self.name = name
    }

    public var description: String { ServiceName.describe(type, name: name) }

    public static func == (lhs: Dependency, rhs: Dependency) -> Bool {
        ObjectIdentifier(lhs.type) == ObjectIdentifier(rhs.type) && lhs.name == rhs.name
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(type))
        hasher.combine(name)
    }
}

/// Type-erased operations on one registration's instances, captured where the service type is known.
package struct ErasedService: Sendable {
    /// Builds an instance into an `InstanceBox<Service>` (synchronous factories only).
    package let makeBox: (@Sendable (any Resolver) throws -> AnyObject)?
    /// Builds an instance into an `InstanceBox<Service>` with an `async` factory.
    package let makeBoxAsync: (@Sendable (any Resolver) async throws -> AnyObject)?
    /// The boxed value, as `Any`.
    package let unbox: @Sendable (AnyObject) -> Any
    /// The boxed value as an object, `nil` for a value type (what `.weak` holds).
    package let object: @Sendable (AnyObject) -> AnyObject?
    /// Boxes a value again (what `.weak` does with the object it still holds).
    package let rebox: @Sendable (Any) -> AnyObject?

    package static func of<Service>(
        _: Service.Type,
        makeBox: (@Sendable (any Resolver) throws -> AnyObject)?,
        makeBoxAsync: (@Sendable (any Resolver) async throws -> AnyObject)?
    ) -> ErasedService {
        ErasedService(
            makeBox: makeBox,
            makeBoxAsync: makeBoxAsync,
            unbox: { unsafeDowncast($0, to: InstanceBox<Service>.self).value },
            object: { box in
                let value = unsafeDowncast(box, to: InstanceBox<Service>.self).value
                return type(of: value as Any) is AnyClass ? value as AnyObject : nil
            },
            rebox: { value in (value as? Service).map { InstanceBox($0) } }
        )
    }
}

/// The typed factory of a synchronous registration.
@usableFromInline
package final class FactoryBox<Service>: Sendable {
    @usableFromInline package let make: @Sendable (any Resolver) throws -> Service

    package init(_ make: @escaping @Sendable (any Resolver) throws -> Service) {
        self.make = make
    }
}

/// The typed factory of an `async` registration.
package final class AsyncFactoryBox<Service>: Sendable {
    package let make: @Sendable (any Resolver) async throws -> Service

    package init(_ make: @escaping @Sendable (any Resolver) async throws -> Service) {
        self.make = make
    }
}

/// The typed factory of a registration with runtime arguments.
package final class ArgumentFactoryBox<Service, each Argument>: Sendable {
    package let make: @Sendable (any Resolver, repeat each Argument) throws -> Service

    package init(_ make: @escaping @Sendable (any Resolver, repeat each Argument) throws -> Service) {
        self.make = make
    }
}

/// How an alias turns its target's instance into the alias type.
package final class AliasBox<Alias>: Sendable {
    package let cast: @Sendable (Any) -> Alias?

    package init() {
        cast = { $0 as? Alias }
    }
}

/// Readable names for types and keys in messages.
package enum ServiceName {
    /// `Logger`, `Logger "primary"`, `any Plugin`.
    package static func describe(_ type: Any.Type, name: String?) -> String {
        let typeName = String(describing: type)
        guard let name else { return typeName }
        return "\(typeName) \"\(name)\""
    }
}
