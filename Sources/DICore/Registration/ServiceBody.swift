/// The typed part of a registration, behind a type-erased face: its factory, and how to box, unbox and
/// describe its instances without knowing their type statically.
///
/// The operations are methods of the generic box classes, which know `Service` from their own metadata, so
/// a registration allocates its body and nothing else; closures made in a generic context would each
/// allocate a context to carry `Service`'s metadata.
@usableFromInline
package protocol ServiceBody: AnyObject, Sendable {
    associatedtype Service

    /// Whether `makeBox` can build an instance (synchronous factories).
    var buildsSynchronously: Bool { get }
    /// Whether `makeBoxAsync` can build an instance (`async` factories).
    var buildsAsynchronously: Bool { get }
    /// Builds an instance into an `InstanceBox<Service>`.
    func makeBox(_ resolver: any Resolver) throws -> AnyObject
    /// Builds an instance into an `InstanceBox<Service>` with an `async` factory.
    func makeBoxAsync(_ resolver: any Resolver) async throws -> AnyObject
}

extension ServiceBody {
    @usableFromInline
    package var buildsSynchronously: Bool { false }
    @usableFromInline
    package var buildsAsynchronously: Bool { false }

    @usableFromInline
    package func makeBox(_ resolver: any Resolver) throws -> AnyObject {
        throw MissingFactory(body: "\(Self.self)", kind: "synchronous")
    }

    @usableFromInline
    package func makeBoxAsync(_ resolver: any Resolver) async throws -> AnyObject {
        throw MissingFactory(body: "\(Self.self)", kind: "async")
    }

    /// The boxed value, as `Any`.
    package func unbox(_ box: AnyObject) -> Any {
        unsafeDowncast(box, to: InstanceBox<Service>.self).value
    }

    /// The boxed value as an object, `nil` for a value type (what `.weak` holds).
    package func object(_ box: AnyObject) -> AnyObject? {
        let value = unsafeDowncast(box, to: InstanceBox<Service>.self).value
        return type(of: value as Any) is AnyClass ? value as AnyObject : nil
    }

    /// Boxes a value again (what `.weak` does with the object it still holds).
    package func rebox(_ value: Any) -> AnyObject? {
        (value as? Service).map { InstanceBox($0) }
    }
}

/// The typed factory of a synchronous registration.
@usableFromInline
package final class FactoryBox<Service>: ServiceBody {
    @usableFromInline package let make: @Sendable (any Resolver) throws -> Service

    package init(_ make: @escaping @Sendable (any Resolver) throws -> Service) {
        self.make = make
    }

    @usableFromInline
    package var buildsSynchronously: Bool { true }

    @usableFromInline
    package func makeBox(_ resolver: any Resolver) throws -> AnyObject {
        InstanceBox(try make(resolver))
    }
}

/// The typed factory of an `async` registration.
package final class AsyncFactoryBox<Service>: ServiceBody {
    package let make: @Sendable (any Resolver) async throws -> Service

    package init(_ make: @escaping @Sendable (any Resolver) async throws -> Service) {
        self.make = make
    }

    package var buildsAsynchronously: Bool { true }

    @usableFromInline
    package func makeBoxAsync(_ resolver: any Resolver) async throws -> AnyObject {
        InstanceBox(try await make(resolver))
    }
}

/// The typed factory of a registration with runtime arguments; it builds only through
/// `resolve(_:arguments:)`, never into a box.
package final class ArgumentFactoryBox<Service, each Argument>: ServiceBody {
    package let make: @Sendable (any Resolver, repeat each Argument) throws -> Service

    package init(_ make: @escaping @Sendable (any Resolver, repeat each Argument) throws -> Service) {
        self.make = make
    }
}

/// How an alias turns its target's instance into the alias type.
package final class AliasBox<Alias>: ServiceBody {
    package typealias Service = Alias

    package init() {}

    package func cast(_ value: Any) -> Alias? {
        value as? Alias
    }
}

/// Thrown by a body asked to build in a way it cannot; callers check `buildsSynchronously` /
/// `buildsAsynchronously` first, so this is never seen unless that contract is broken.
struct MissingFactory: Error, CustomStringConvertible {
    let body: String
    let kind: String

    var description: String { "\(body) has no \(kind) factory." }
}
