/// Resolves a service again on every call, awaiting its `async` factory: inject `AsyncProvider<T>` for a
/// service registered with `registerAsync`, where a `Provider<T>` cannot build it.
///
/// ```swift
/// try app.registerAsync(Store.self, scope: .singleton) { _ in await Store.open() }
/// final class Sync: Sendable {
///     let store: AsyncProvider<Store>
///     init(store: AsyncProvider<Store>) { self.store = store }
///     func run() async throws { try await store().flush() }
/// }
/// try app.autoregister(Sync.self, initializer: Sync.init)
/// ```
///
/// An `AsyncProvider` needs no registration of its own: any registered `T`, `async` or not, can be injected
/// as `AsyncProvider<T>` (through `autoregister`, `resolve(_:)`, `resolveAsync(_:)`, `@Inject`). It is made
/// when its owner is built and fails then if nothing is registered for `T`. Each call resolves `T` with
/// `resolveAsync` from the container that was asked for the `AsyncProvider` (inside a factory, the one its
/// `Resolver` stands for), honouring `T`'s lifetime: a singleton is built once, even when many tasks call at
/// the same moment (the others suspend until it is ready), and a transient is new on each call.
///
/// A cycle through an `AsyncProvider` is no construction cycle as long as the owner does not call it while
/// being built; a call made during the build of its own target is a cycle, and throws `circularDependency`
/// with the whole path. An error from a call names the path from the owner that received the
/// `AsyncProvider`, with its step marked deferred (``PathElement/isDeferred``). In a graph it is recorded as an
/// async per-call edge (``Dependency/Kind/asyncPerCall``), drawn as a `Provider`'s is.
///
/// A synchronous `Provider<T>` or `Lazy<T>` of a service registered with `registerAsync` fails when it is
/// injected, with `asyncResolutionRequired` naming `AsyncProvider<T>` as the way out.
///
/// An `AsyncProvider` keeps no instance, so it is `Sendable` for any service. It holds its container weakly:
/// a call after the container was released throws `containerClosed`. A test that builds an owner by hand
/// passes `AsyncProvider { … }`.
public struct AsyncProvider<Service>: Sendable {
    /// Where a provider made by a container resolves; `nil` for one built by hand.
    let storage: ProviderStorage?
    /// What a provider built by hand calls; `nil` for one made by a container.
    let body: (@Sendable () async throws -> Service)?

    init(storage: ProviderStorage) {
        self.storage = storage
        body = nil
    }

    /// A provider that calls `body`, for tests that build an owner by hand.
    ///
    /// ```swift
    /// let sync = Sync(store: AsyncProvider { await Store.inMemory() })
    /// ```
    ///
    /// It belongs to no container: each call runs `body`.
    ///
    /// - Parameter body: Makes the service.
    public init(_ body: @escaping @Sendable () async throws -> Service) {
        storage = nil
        self.body = body
    }

    /// Resolves the service, running its `async` factory if it has one.
    ///
    /// ```swift
    /// let store = try await stores()
    /// ```
    ///
    /// - Throws: `ResolutionError`; its path starts at the owner that received the `AsyncProvider`.
    public func callAsFunction() async throws -> Service {
        guard let storage else { return try await body.unsafelyUnwrapped() }
        do {
            return try await storage.container(resolving: Service.self).resolveAsync(Service.self, name: storage.name)
        } catch {
            // Inside an async factory, the builds under way are the task's, not the thread's.
            throw storage.deferring(error, activeSteps: AsyncResolution.current?.depth ?? 0)
        }
    }
}

extension AsyncProvider: RelationshipService {
    static var dependency: Dependency { Dependency(Service.self, kind: .asyncPerCall) }

    static func make(from container: Container, name: String?) throws -> AsyncProvider<Service> {
        let target = try container.relationshipTarget(Service.self, name: name, for: AsyncProvider<Service>.self)
        let origin = RelationshipOrigin(AsyncProvider<Service>.self, kind: .asyncPerCall, name: name, target: target,
                                        in: container)
        return AsyncProvider(storage: ProviderStorage(container: container, name: name, request: .type, origin: origin))
    }

    static func isAvailable(in container: Container, name: String?) -> Bool {
        (try? container.relationshipTarget(Service.self, name: name, for: AsyncProvider<Service>.self)) != nil
    }
}
