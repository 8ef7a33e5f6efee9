import DICore

extension Scope {
    /// One instance per **asking** container, held by that container; its dependencies come from the
    /// asking container too, so a child's overrides apply to the child's instance.
    ///
    /// Every container that resolves the service gets its own instance, whichever container registered it:
    /// each feature child has its own, and the registering container has one of its own when it is asked.
    ///
    /// ```swift
    /// try app.register(Cart.self, scope: .scoped) { r in Cart(pricing: try r.resolve(Pricing.self)) }
    /// let checkout = app.child(name: "checkout")
    /// try checkout.register(Pricing.self) { _ in DiscountPricing() }   // the checkout's cart uses this
    ///
    /// try checkout.resolve(Cart.self) === checkout.resolve(Cart.self)   // true
    /// try checkout.resolve(Cart.self) === app.resolve(Cart.self)        // false: app has its own
    /// ```
    ///
    /// The asking container disposes its `Disposable` instances when it is closed, and
    /// `reset(_:includingDescendants:)` with `.scoped` drops them.
    public static let scoped = Scope(name: "scoped", lifetime: ScopedLifetime())

    /// One instance per **top-level resolve**, shared by everything built inside that resolve; the next
    /// top-level resolve builds a new one. Dependencies come from the container that was asked.
    ///
    /// ```swift
    /// try app.register(UnitOfWork.self, scope: .graph) { _ in UnitOfWork() }
    /// try app.register(OrderRepository.self) { r in OrderRepository(work: try r.resolve(UnitOfWork.self)) }
    /// try app.register(StockRepository.self) { r in StockRepository(work: try r.resolve(UnitOfWork.self)) }
    /// try app.register(PlaceOrder.self) { r in
    ///     PlaceOrder(orders: try r.resolve(OrderRepository.self), stock: try r.resolve(StockRepository.self))
    /// }
    /// let first = try app.resolve(PlaceOrder.self)    // orders and stock share one UnitOfWork
    /// let second = try app.resolve(PlaceOrder.self)   // and this one has a new one
    /// ```
    ///
    /// The resolution holds the instance, not a container: nobody disposes it, and
    /// `reset(_:includingDescendants:)` has nothing to drop.
    public static let graph = Scope(name: "graph", lifetime: GraphLifetime())

    /// Shared while somebody holds it: the registering container keeps it **weakly**, and builds a new one
    /// once the last strong reference is gone. Dependencies come from the registering container.
    ///
    /// ```swift
    /// try app.register((any Router).self, scope: .weak) { _ in AppRouter() }
    /// var router: (any Router)? = try app.resolve((any Router).self)
    /// try app.resolve((any Router).self) === router          // true, while `router` holds it
    /// router = nil                                            // the next resolve builds a new one
    /// ```
    ///
    /// Only class instances can be held weakly. Registering a value type (a struct, an enum, a tuple, an
    /// optional, a function) throws a `RegistrationError` with code `invalidScope`. Protocol existentials such as
    /// `(any Router).self` are accepted; when the type does not force a class (`protocol Router: AnyObject`),
    /// the built instance is checked, and a value instance fails the resolve with `scopeUnavailable`.
    /// The container does not own weak instances, so it never disposes them.
    public static let weak = Scope(name: "weak", lifetime: WeakLifetime())

    /// One instance per **registering** container, like `.singleton`, until
    /// `reset(_:includingDescendants:)` drops it; the next resolve then builds a new one.
    /// Dependencies come from the registering container.
    ///
    /// ```swift
    /// try app.register(FeatureFlags.self, scope: .cached) { r in try FeatureFlags.load(r) }
    /// let flags = try app.resolve(FeatureFlags.self)
    /// app.reset(.cached)                                      // e.g. after the user signed in again
    /// try app.resolve(FeatureFlags.self) !== flags           // true: loaded again
    /// ```
    ///
    /// A reset clears only the instances of the container it is called on (and, when asked, its
    /// descendants), never those of its parent. Reset instances that are `Disposable` are disposed.
    public static let cached = Scope(name: "cached", lifetime: CachedLifetime())

    /// One instance per nearest container **tagged** `tag` (the asking container or an ancestor), held by
    /// that container; its dependencies come from that container.
    ///
    /// ```swift
    /// try app.register(Session.self, scope: .matching("session")) { r in Session(api: try r.resolve(API.self)) }
    /// let session = app.child(name: "session", tags: ["session"])
    /// let profile = session.child(name: "profile")
    /// try profile.resolve(Session.self) === session.resolve(Session.self)   // true: held by `session`
    /// try app.resolve(Session.self)   // throws scopeUnavailable: no container tagged "session" on the path
    /// ```
    ///
    /// Resolving where no container on the path from the asking container to the root has the tag throws a
    /// `ResolutionError` with code `scopeUnavailable` that names the tag and the containers searched. The
    /// tagged container must be the registering container or one of its descendants, since its resolver
    /// builds the instance; a tagged ancestor above the registration is refused with the same code.
    ///
    /// - Parameter tag: A tag given to containers with `Container(name:tags:)` or `child(name:tags:)`.
    /// - Returns: The scope; scopes with equal tags are equal.
    public static func matching(_ tag: String) -> Scope {
        Scope(name: "matching(\"\(tag)\")", lifetime: MatchingLifetime(tag: tag))
    }

    /// A lifetime whose instances live in `storage`, one per registration; dependencies come from the
    /// registering container.
    ///
    /// The storage decides how long an instance lives: it is asked first on every resolve, the instance is
    /// built (exactly once, even when many threads ask together) only when the storage has none, and it is
    /// then handed to the storage. `reset(_:includingDescendants:)` with the scope, closing
    /// the registering container, and registering the key again release the instance from the storage and
    /// dispose it.
    ///
    /// ```swift
    /// let sessionStorage = DictionaryStorage()
    /// let session = Scope.custom("session", storage: sessionStorage)
    /// try app.register(UserProfile.self, scope: session) { r in UserProfile(api: try r.resolve(API.self)) }
    ///
    /// // Several storages, asked in order:
    /// let layered = Scope.custom("layered", storage: CompositeStorage(memoryStorage, sessionStorage))
    /// ```
    ///
    /// Scopes are equal when their names are equal; give each custom scope its own name. Registering with a
    /// custom scope whose name is empty or a built-in scope's (`"cached"`) throws `RegistrationError`
    /// (`invalidScope`).
    ///
    /// - Parameters:
    ///   - name: The name shown in diagnostics and used to tell scopes apart.
    ///   - storage: Where instances are kept; see ``InstanceStorage`` and ``checkInstanceStorage(_:)``.
    /// - Returns: A scope to pass to `register(_:scope:)`.
    public static func custom(_ name: String, storage: any InstanceStorage) -> Scope {
        Scope(name: name, lifetime: CustomLifetime(name: name, storage: storage))
    }
}
