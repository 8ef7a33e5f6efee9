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
