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
