/// The typed factory of a registration with runtime arguments; it builds only through
/// `resolve(_:arguments:)`, never into a box.
package final class ArgumentFactoryBox<Service, each Argument>: ServiceBody {
    package let make: @Sendable (any Resolver, repeat each Argument) throws -> Service

    package init(_ make: @escaping @Sendable (any Resolver, repeat each Argument) throws -> Service) {
        self.make = make
    }
}
