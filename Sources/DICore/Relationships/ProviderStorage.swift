/// What a `Provider` (or an `AsyncProvider`) shares between its copies: where and how it resolves.
@usableFromInline
final class ProviderStorage: Sendable {
    /// What each call resolves.
    @usableFromInline
    enum Request: Sendable {
        /// The type under `name`.
        case type
        /// The type under `name`, built with the call's arguments.
        case arguments
        /// A key of the keypath registry: a `KeyRequest` of the provider's service type.
        case key(any AnyObject & Sendable)
        /// The closure of a provider built by hand, taking the call's arguments as one tuple.
        case handBuilt(@Sendable (Any) throws -> Any)
    }

    /// Held weakly: an instance a container holds must not keep that container alive through its own
    /// `Provider` properties.
    @usableFromInline weak let container: Container?
    @usableFromInline let name: String?
    @usableFromInline let request: Request
    private let origin: RelationshipOrigin

    init(container: Container, name: String?, request: Request, origin: RelationshipOrigin) {
        self.container = container
        self.name = name
        self.request = request
        self.origin = origin
    }

    /// The storage of a provider built by hand, in no container.
    init(handBuilt body: @escaping @Sendable (Any) throws -> Any, origin: RelationshipOrigin) {
        container = nil
        name = nil
        request = .handBuilt(body)
        self.origin = origin
    }

    /// Resolves the key of a `.key` request, whose service type is `Service`.
    @usableFromInline
    func resolveKey<Service>(as _: Service.Type, from container: Container) throws -> Service {
        guard case .key(let request) = request, let request = request as? KeyRequest<Service> else {
            preconditionFailure("a provider of a key resolves its key's own service type")
        }
        return try container.resolve(request.key)
    }

    /// The container to resolve `type` from.
    ///
    /// - Throws: `containerClosed` when the container was released.
    @usableFromInline
    func container(resolving type: Any.Type) throws -> Container {
        guard let container else { throw released(type) }
        return container
    }

    /// The error of a call made after the container was released.
    @usableFromInline
    func released(_ type: Any.Type) -> any Error {
        origin.released(type, name: name)
    }

    /// A call's error with the `Provider` step in its path.
    ///
    /// - Parameter activeSteps: How many steps of the error's path were under way when the call was made;
    ///   by default those of this thread's synchronous resolution.
    @usableFromInline
    func deferring(_ error: any Error, activeSteps: Int? = nil) -> any Error {
        origin.deferring(error, activeSteps: activeSteps)
    }
}
