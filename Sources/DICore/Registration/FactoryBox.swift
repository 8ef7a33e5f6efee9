/// The typed factory of a synchronous registration.
@usableFromInline
package final class FactoryBox<Service>: ServiceBody {
    @usableFromInline package let make: @Sendable (any Resolver) throws -> Service
    /// `InstanceBox<Service>`, looked up once here: generic code that names the type asks the runtime for its
    /// metadata on every call, a hash-table lookup that cost about as much as the rest of a build.
    private let boxType = InstanceBox<Service>.self

    package init(_ make: @escaping @Sendable (any Resolver) throws -> Service) {
        self.make = make
    }

    @usableFromInline
    package var buildsSynchronously: Bool { true }

    @usableFromInline
    package func makeBox(_ resolver: any Resolver) throws -> AnyObject {
        boxType.init(try make(resolver))
    }
}

/// The body of a value registration (`register(_:value:)`): the value itself, handed out as is.
///
/// Its registration publishes the value's box from the start (`Registration.builtSingleton`) and has no
/// instance slot, so nothing builds, holds or disposes the value; the slow paths that build anyway (a test
/// container, an observed container) get a fresh box of the same value from `makeBox`.
@usableFromInline
package final class ValueBody<Service: Sendable>: ServiceBody {
    @usableFromInline package let value: Service

    @inlinable
    package init(_ value: Service) {
        self.value = value
    }

    @usableFromInline
    package var buildsSynchronously: Bool { true }

    @usableFromInline
    package func makeBox(_ resolver: any Resolver) throws -> AnyObject {
        InstanceBox(value)
    }
}
