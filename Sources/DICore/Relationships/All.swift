/// Every registration of a service, under every name, in `resolveAll` order: inject `All<T>` for the
/// plugins, handlers or middlewares that several modules register.
///
/// ```swift
/// try app.register((any Plugin).self, name: "audit") { _ in AuditPlugin() }
/// try app.register((any Plugin).self, name: "metrics") { _ in MetricsPlugin() }
/// final class PluginHost { init(plugins: All<any Plugin>) { for plugin in plugins { … } } }
/// try app.autoregister(PluginHost.self, initializer: PluginHost.init)
/// ```
///
/// `All<T>` needs no registration of its own. It is resolved when its owner is built, from the container
/// that was asked for it: that container's registrations first, in registration order, then each ancestor's;
/// a key a nearer container shadows appears once. Nothing registered gives an empty collection.
public struct All<Service>: RandomAccessCollection {
    /// The services, in `resolveAll` order.
    public let elements: [Service]

    /// A collection of `elements`, for tests that build an owner by hand.
    ///
    /// ```swift
    /// let host = PluginHost(plugins: All([FakePlugin()]))
    /// ```
    ///
    /// - Parameter elements: The services.
    public init(_ elements: [Service]) {
        self.elements = elements
    }

    /// The position of the first service.
    public var startIndex: Int { elements.startIndex }
    /// The position after the last service.
    public var endIndex: Int { elements.endIndex }

    /// The service at `position`.
    ///
    /// - Parameter position: A valid index of the collection.
    public subscript(position: Int) -> Service { elements[position] }
}

extension All: Sendable where Service: Sendable {}

extension All: RelationshipService {
    static var dependency: Dependency { Dependency(Service.self, kind: .collection) }

    static func make(from container: Container, name: String?) throws -> All<Service> {
        All(try container.resolveAll(Service.self, for: .collection(of: All<Service>.self)))
    }

    static func isAvailable(in container: Container, name: String?) -> Bool { true }
}
