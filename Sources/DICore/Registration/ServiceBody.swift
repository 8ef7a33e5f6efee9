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
