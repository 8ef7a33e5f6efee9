/// A service resolved on its first read, then kept: inject `Lazy<T>` instead of `T` for a service that is
/// expensive and rarely needed, or to break a construction cycle.
///
/// ```swift
/// final class Checkout: Sendable {
///     let payments: Lazy<any PaymentService>
///     init(payments: Lazy<any PaymentService>) { self.payments = payments }
///     func pay() throws { try payments.value.charge() }
/// }
/// try app.autoregister(Checkout.self, initializer: Checkout.init)
/// ```
///
/// A `Lazy` needs no registration of its own: any registered `T` can be injected as `Lazy<T>` (through
/// `autoregister`, `resolve(Lazy<T>.self)`, `@Inject`). It is made when its owner is built and fails then if
/// nothing is registered for `T`. Its first `value` resolves `T` from the container that was asked for the
/// `Lazy` — inside a factory, the one its `Resolver` stands for, which is where the owner's dependencies come
/// from — honouring `T`'s lifetime; the result is then kept, so a `Lazy` of a transient builds one instance.
///
/// The first read resolves exactly once even when many threads read at the same moment (the others wait,
/// holding no lock); later reads cost one atomic load. A failed first read keeps nothing, and the next read
/// tries again.
///
/// A cycle `A → Lazy<B> → B → A` is no construction cycle: `A` is built with a `Lazy` it does not read
/// during construction. Reading it while `B` or `A` is still being built is a cycle, and throws
/// `circularDependency` naming the whole path. An error from the first read names the path from the owner
/// that received the `Lazy`, with the `Lazy` step marked deferred (``PathElement/isDeferred``).
///
/// `Lazy<T>` is `Sendable` when `T` is. It holds its container weakly (a service a container keeps must not
/// keep that container alive through its own relationships): a first read after the container was released
/// throws `containerClosed`.
public struct Lazy<Service> {
    @usableFromInline let storage: LazyStorage<Service>

    init(storage: LazyStorage<Service>) {
        self.storage = storage
    }

    /// The service: resolved on the first read, then the same instance on every read.
    ///
    /// ```swift
    /// let payments = try checkout.payments.value
    /// ```
    ///
    /// - Throws: `ResolutionError` when the resolution fails (nothing is kept; the next read tries again);
    ///   its path starts at the owner that received the `Lazy`, with the `Lazy` step marked deferred.
    @inlinable
    public var value: Service {
        get throws {
            if let value = storage.slot.builtValue(as: Service.self) { return value }
            return try storage.resolve()
        }
    }

    /// Whether the service was resolved (a read has succeeded).
    ///
    /// ```swift
    /// if checkout.payments.isResolved { … }
    /// ```
    public var isResolved: Bool {
        storage.slot.builtValue(as: Service.self) != nil
    }
}

extension Lazy: Sendable where Service: Sendable {}

extension Lazy: RelationshipService {
    static var dependency: Dependency { Dependency(Service.self, kind: .deferred) }

    static func make(from container: Container, name: String?) throws -> Lazy<Service> {
        let target = try container.relationshipTarget(Service.self, name: name)
        return Lazy(storage: LazyStorage(target: target, name: name, container: container))
    }

    static func isAvailable(in container: Container, name: String?) -> Bool {
        (try? container.relationshipTarget(Service.self, name: name)) != nil
    }
}

/// What a `Lazy` shares between its copies: the once-slot its value is published in, and what it needs to
/// resolve it.
///
/// The slot is an `InstanceSlot` with lock-free reads, the one a singleton uses, so the first read goes
/// through the same build-and-wait state machine (`BuildCoordinator`): exactly once under concurrency, a
/// cycle reported instead of a hang, no lock held while resolving.
///
/// Why this class is `Sendable` whatever `Service` is: the value lives in the slot as an `InstanceBox`
/// behind `Unmanaged` bits; only `Lazy`, which is `Sendable` for a `Sendable` service alone, hands it out.
@usableFromInline
final class LazyStorage<Service>: Sendable {
    @usableFromInline let slot = InstanceSlot(retention: .strong, lockFreeReads: true)
    /// The target's registration when the `Lazy` was made; it names the build in cycle errors.
    private let target: Registration
    private let name: String?
    private let origin: RelationshipOrigin
    /// The container to resolve from, held weakly: an instance a container holds must not keep that
    /// container alive through its own `Lazy` properties.
    private weak let container: Container?

    init(target: Registration, name: String?, container: Container) {
        self.target = target
        self.name = name
        origin = RelationshipOrigin(Lazy<Service>.self, kind: .deferred, name: name, target: target, in: container)
        self.container = container
    }

    /// The first read (or one racing it): resolves once, or waits for the read that does.
    @usableFromInline @inline(never)
    func resolve() throws -> Service {
        do {
            let (box, _) = try slot.once(describedBy: target, resolution: .currentThread) {
                guard let container else { throw origin.released(Service.self, name: name) }
                return InstanceBox(try container.resolve(Service.self, name: name))
            }
            return unsafeDowncast(box, to: InstanceBox<Service>.self).value
        } catch {
            throw origin.deferring(error)
        }
    }
}
