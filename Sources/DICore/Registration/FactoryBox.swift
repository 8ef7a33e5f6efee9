/// The typed factory of a synchronous registration.
@usableFromInline
package final class FactoryBox<Service>: ServiceBody {
    @usableFromInline package let make: @Sendable (any Resolver) throws -> Service
    /// `InstanceBox<Service>`, looked up once here for a registration that builds boxes again and again (one
    /// per container or per request): generic code that names the type asks the runtime for its metadata on
    /// every call, a hash-table lookup that costs about as much as the rest of a build. Not for the others:
    /// a transient's factory is called without a box, a singleton builds one box, and the lookup would be an
    /// extra cost for every registration made.
    private let boxType: InstanceBox<Service>.Type?

    /// Makes the body; `buildsOften` for a lifetime that builds an instance per container or per resolve.
    package init(_ make: @escaping @Sendable (any Resolver) throws -> Service, buildsOften: Bool = false) {
        self.make = make
        boxType = buildsOften ? InstanceBox<Service>.self : nil
    }

    @usableFromInline
    package var buildsSynchronously: Bool { true }

    @usableFromInline
    package func makeBox(_ resolver: any Resolver) throws -> AnyObject {
        let value = try make(resolver)
        if let boxType { return boxType.init(value) }
        return InstanceBox(value)
    }
}

/// The body of a value registration (`register(_:value:)`): the value itself, handed out as is.
///
/// Its registration publishes the value's box from the start (`Registration.builtSingleton`) and has no
/// instance slot, so nothing builds, holds or disposes the value; the slow paths that build anyway (a test
/// container, an observed container) get a fresh box of the same value from `makeBox`. The body keeps the
/// published box rather than a copy of the value: one copy per registration, not two.
@usableFromInline
package final class ValueBody<Service: Sendable>: ServiceBody {
    @usableFromInline package let box: InstanceBox<Service>

    @inlinable
    package init(_ box: InstanceBox<Service>) {
        self.box = box
    }

    @usableFromInline
    package var buildsSynchronously: Bool { true }

    @usableFromInline
    package func makeBox(_ resolver: any Resolver) throws -> AnyObject {
        InstanceBox(box.value)
    }
}
