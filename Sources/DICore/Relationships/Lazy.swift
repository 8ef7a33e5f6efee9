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
/// nothing is registered for `T`, or if `T` has only an `async` factory (`registerAsync`), which no synchronous
/// read could run: inject ``AsyncProvider`` for such a service. Its first `value` resolves `T` from the
/// container that was asked for the `Lazy` — inside a factory, the one its `Resolver` stands for, which is where
/// the owner's dependencies come from — honouring `T`'s lifetime; the result is then kept, so a `Lazy` of a
/// transient builds one instance.
///
/// The first read resolves exactly once even when many threads read at the same moment (the others wait,
/// holding no lock); later reads cost one atomic load and the value, what reading a stored property costs.
/// A failed first read keeps nothing, and the next read tries again. What it keeps does not follow the
/// container: a reset of `T`'s scope or a new registration of `T` after the first read leaves the `Lazy` with
/// the instance it read (disposed, when the reset disposed it); inject `Provider<T>` to resolve again instead.
/// `value` returns the service as any getter does, so the caller owns its reference (a retain, as for a stored
/// property read into a local); ``withValue(_:)`` lends it to a closure instead, without that retain.
///
/// A cycle `A → Lazy<B> → B → A` is no construction cycle: `A` is built with a `Lazy` it does not read
/// during construction. Reading it while `B` or `A` is still being built is a cycle, and throws
/// `circularDependency` naming the whole path. An error from the first read names the path from the owner
/// that received the `Lazy`, with the `Lazy` step marked deferred (``PathElement/isDeferred``).
///
/// `Lazy<T>` is `Sendable` when `T` is. It holds its container weakly (a service a container keeps must not
/// keep that container alive through its own relationships): a first read after the container was released
/// throws `containerClosed`.
///
/// A key of the keypath registry is injected lazily with `lazy(_:)`: `try r.lazy(\.clock)`. A test that builds
/// an owner by hand passes `Lazy(value:)`.
public struct Lazy<Service> {
    @usableFromInline let storage: LazyStorage<Service>

    init(storage: LazyStorage<Service>) {
        self.storage = storage
    }

    /// A `Lazy` that is already resolved to `value`, for tests that build an owner by hand.
    ///
    /// ```swift
    /// let checkout = Checkout(payments: Lazy(value: FakePayments()))
    /// #expect(checkout.payments.isResolved)
    /// ```
    ///
    /// It belongs to no container: every read returns `value`, and it never throws.
    ///
    /// - Parameters:
    ///   - value: The service every read returns.
    ///   - fileID: The file of the call, printed in diagnostics; leave the default.
    ///   - line: The line of the call, printed in diagnostics; leave the default.
    public init(value: Service, fileID: String = #fileID, line: Int = #line) {
        storage = LazyStorage(value: value, location: SourceLocation(fileID: fileID, line: line))
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
            if let address = storage.address { return address.pointee }
            return try storage.resolve().pointee
        }
    }

    /// Lends the service to `body`: resolved on the first call, then the same instance on every call, without
    /// the retain and release that returning it from `value` costs.
    ///
    /// A throwing property cannot lend its value out, so `value` hands the caller its own reference. Where a
    /// `Lazy` is read in a hot loop and the service is only used, read it through a closure instead: after the
    /// first read this costs an atomic load and the closure.
    ///
    /// ```swift
    /// for order in orders {
    ///     try payments.withValue { try $0.charge(order) }
    /// }
    /// ```
    ///
    /// - Parameter body: Uses the service; what it returns is returned. Keep the service beyond `body` by
    ///   returning it (or read `value`).
    /// - Returns: What `body` returns.
    /// - Throws: What `value` throws (nothing is kept; the next read tries again), or what `body` throws.
    @inlinable
    public func withValue<Result>(_ body: (Service) throws -> Result) throws -> Result {
        if let address = storage.address { return try body(address.pointee) }
        return try body(storage.resolve().pointee)
    }

    /// Whether the service was resolved (a read has succeeded).
    ///
    /// ```swift
    /// if checkout.payments.isResolved { … }
    /// ```
    public var isResolved: Bool {
        storage.address != nil
    }
}

extension Lazy: Sendable where Service: Sendable {}

extension Lazy: RelationshipService {
    static var dependency: Dependency { Dependency(Service.self, kind: .deferred) }

    static func make(from container: Container, name: String?) throws -> Lazy<Service> {
        let target = try container.relationshipTarget(Service.self, name: name, for: Lazy<Service>.self)
        // Its reads are synchronous: one of a service only `resolveAsync` builds could never succeed.
        if container.buildsOnlyAsynchronously(target) {
            let origin = RelationshipOrigin(
                Lazy<Service>.self, kind: .deferred, name: name, target: target, in: container
            )
            throw container.asyncOnly(target, for: "Lazy", Service.self, name: name, origin: origin)
        }
        return Lazy(storage: LazyStorage(target: target, request: .type(name: name), container: container))
    }

    /// A `Lazy` of the key `key` of the keypath registry, made in `container`.
    ///
    /// - Throws: `requiredKeyMissing` when the key is `.required()` and nobody registered it.
    static func make(key: ServiceKeyPath<Service>, from container: Container) throws -> Lazy<Service> {
        let target = try container.registration(for: key)
        return Lazy(storage: LazyStorage(target: target, request: .key(key), container: container))
    }

    static func isAvailable(in container: Container, name: String?) -> Bool {
        (try? container.relationshipTarget(Service.self, name: name, for: Lazy<Service>.self)) != nil
    }
}
