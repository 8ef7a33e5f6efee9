/// Resolves a service again on every call: inject `Provider<T>` to get a new transient (or the one
/// singleton) each time, or `Provider<T, Argument…>` to build a service registered with runtime arguments.
///
/// ```swift
/// final class Checkout: Sendable {
///     let receipts: Provider<Receipt>
///     let makeReport: Provider<Report, String>          // registered with a String argument
///     init(receipts: Provider<Receipt>, makeReport: Provider<Report, String>) { … }
/// }
/// let receipt = try checkout.receipts()
/// let report = try checkout.makeReport("2026-Q3")      // a wrong argument type does not compile
/// ```
///
/// A `Provider` needs no registration of its own: any registered `T` can be injected as `Provider<T>`, and
/// any `T` registered with arguments `(A, B)` as `Provider<T, A, B>`. It is made when its owner is built and
/// fails then if nothing is registered under that key. Each call resolves from the container that was asked
/// for the `Provider` (inside a factory, the one its `Resolver` stands for), honouring `T`'s lifetime: a
/// singleton stays one instance, a transient is new on each call.
///
/// A cycle through a `Provider` is no construction cycle as long as the owner does not call it while being
/// built. An error from a call names the path from the owner that received the `Provider`, with the
/// `Provider` step marked deferred (``PathElement/isDeferred``).
///
/// A `Provider` keeps no instance, so it is `Sendable` for any service. It holds its container weakly (a
/// service a container keeps must not keep that container alive through its own relationships): a call after
/// the container was released throws `containerClosed`.
public struct Provider<Service, each Argument>: Sendable {
    @usableFromInline let storage: ProviderStorage

    init(storage: ProviderStorage) {
        self.storage = storage
    }

    /// Resolves the service, passing `arguments` to a factory registered with runtime arguments.
    ///
    /// ```swift
    /// let receipt = try receipts()
    /// let report = try makeReport("2026-Q3")
    /// ```
    ///
    /// - Parameter arguments: The runtime arguments, of the types the provider was declared with.
    /// - Throws: `ResolutionError`; its path starts at the owner that received the `Provider`.
    @inlinable
    public func callAsFunction(_ arguments: repeat each Argument) throws -> Service {
        do {
            guard let container = storage.container else { throw storage.released(Service.self) }
            guard storage.takesArguments else {
                return try container.resolve(Service.self, name: storage.name)
            }
            return try container.resolve(Service.self, name: storage.name, arguments: repeat each arguments)
        } catch {
            throw storage.deferring(error)
        }
    }
}

extension Provider: RelationshipService {
    static var dependency: Dependency {
        Dependency(Service.self, kind: argumentCount == 0 ? .perCall : .assisted)
    }

    static var argumentCount: Int {
        var count = 0
        for _ in repeat (each Argument).self { count += 1 }
        return count
    }

    static func make(from container: Container, name: String?) throws -> Provider<Service, repeat each Argument> {
        let takesArguments = argumentCount > 0
        let target = try container.relationshipTarget(
            Service.self, name: name,
            arguments: takesArguments ? ObjectIdentifier((repeat each Argument).self) : nil
        )
        let origin = RelationshipOrigin(
            Provider<Service, repeat each Argument>.self, kind: takesArguments ? .assisted : .perCall,
            name: name, target: target, in: container
        )
        return Provider(storage: ProviderStorage(
            container: container, name: name, takesArguments: takesArguments, origin: origin
        ))
    }

    static func isAvailable(in container: Container, name: String?) -> Bool {
        let arguments = argumentCount > 0 ? ObjectIdentifier((repeat each Argument).self) : nil
        return (try? container.relationshipTarget(Service.self, name: name, arguments: arguments)) != nil
    }
}

/// What a `Provider` shares between its copies: where and how it resolves.
@usableFromInline
final class ProviderStorage: Sendable {
    /// Held weakly: an instance a container holds must not keep that container alive through its own
    /// `Provider` properties.
    @usableFromInline weak let container: Container?
    @usableFromInline let name: String?
    @usableFromInline let takesArguments: Bool
    private let origin: RelationshipOrigin

    init(container: Container, name: String?, takesArguments: Bool, origin: RelationshipOrigin) {
        self.container = container
        self.name = name
        self.takesArguments = takesArguments
        self.origin = origin
    }

    /// The error of a call made after the container was released.
    @usableFromInline
    func released(_ type: Any.Type) -> any Error {
        origin.released(type, name: name)
    }

    /// A call's error with the `Provider` step in its path.
    @usableFromInline
    func deferring(_ error: any Error) -> any Error {
        origin.deferring(error)
    }
}
