import DICore
import Testing

/// What all relationship types share: cycles broken through them, errors of deferred resolutions, the
/// edges `autoregister` records, optional parameters.
@Suite struct RelationshipTests {
    final class A: Sendable {
        let b: Lazy<B>
        init(b: Lazy<B>) { self.b = b }
    }

    final class B: Sendable {
        let a: A
        init(a: A) { self.a = a }
    }

    final class PlainA: Sendable { init(b: PlainB) {} }
    final class PlainB: Sendable { init(a: PlainA) {} }

    final class Cache: Sendable {}

    final class Store: Sendable {
        let cache: Cache?
        let lazyCache: Lazy<Cache>?
        init(cache: Cache?, lazyCache: Lazy<Cache>?) {
            self.cache = cache
            self.lazyCache = lazyCache
        }
    }

    @Test(arguments: [Scope.singleton, Scope.transient])
    func aCycleThroughLazyResolves(scope: Scope) throws {
        let app = Container(name: "app")
        try app.autoregister(A.self, scope: scope, initializer: A.init)
        try app.autoregister(B.self, scope: scope, initializer: B.init)
        let a = try app.resolve(A.self)
        let b = try a.b.value
        if scope == .singleton {
            #expect(b.a === a)
            #expect(try b.a.b.value === b)
        } else {
            #expect(b.a !== a)
        }
    }

    @Test func theSameCycleThroughPlainTypesFailsAndSuggestsARelationship() throws {
        let app = Container(name: "app")
        try app.autoregister(PlainA.self, initializer: PlainA.init)
        try app.autoregister(PlainB.self, initializer: PlainB.init)
        let error = try #require(throws: ResolutionError.self) { try app.resolve(PlainA.self) }
        #expect(error.code == .circularDependency)
        #expect(error.path.map(\.description) == ["PlainA", "PlainB", "PlainA"])
        #expect(error.description.contains("let PlainB take Lazy<PlainA>"))
        #expect(error.description.contains("Provider<PlainA>"))
    }

    @Test(arguments: [Scope.singleton, Scope.transient])
    func readingTheLazyWhileItsOwnerIsBeingBuiltIsACycleWithTheWholePath(scope: Scope) throws {
        let app = Container(name: "app")
        try app.register(A.self, scope: scope) { r in
            let a = A(b: try r.resolve(Lazy<B>.self))
            _ = try a.b.value
            return a
        }
        try app.autoregister(B.self, initializer: B.init)
        let error = try #require(throws: ResolutionError.self) { try app.resolve(A.self) }
        #expect(error.code == .circularDependency)
        #expect(error.path.map(\.description) == ["A", "Lazy<B>", "B", "A"])
        #expect(error.path.map(\.isDeferred) == [false, true, false, false])
        #expect(error.description.contains("A → Lazy<B> → B → A"))
    }

    @Test func aDeferredErrorCarriesThePathFromTheOwner() throws {
        let app = Container(name: "app")
        let checkout = app.child(name: "checkout")
        // B is registered, so the Lazy is made; B's own dependency is missing, which shows on first read.
        try checkout.autoregister(A.self, initializer: A.init)
        try checkout.register(B.self) { r in
            _ = try r.resolve(PlainA.self)
            return B(a: try r.resolve(A.self))
        }
        let a = try checkout.resolve(A.self)
        let error = try #require(throws: ResolutionError.self) { try a.b.value }
        #expect(error.code == .notRegistered)
        #expect(error.path.map(\.description) == ["A", "Lazy<B>", "B", "PlainA"])
        #expect(error.path.map(\.isDeferred) == [false, true, false, false])
        #expect(error.path[1].scope == "deferred")
        #expect(error.searchedContainers == ["checkout", "app"])
        #expect(error.description.contains("A → Lazy<B> → B → PlainA"))
        #expect(error.description.contains("deferred"))
    }

    @Test func aProviderCallErrorCarriesThePathFromTheOwner() throws {
        struct Boom: Error {}
        final class Owner: Sendable {
            let make: Provider<Cache>
            init(make: Provider<Cache>) { self.make = make }
        }
        let app = Container(name: "app")
        try app.register(Cache.self) { _ in throw Boom() }
        try app.autoregister(Owner.self, initializer: Owner.init)
        let owner = try app.resolve(Owner.self)
        let error = try #require(throws: ResolutionError.self) { try owner.make() }
        #expect(error.code == .factoryFailed)
        #expect(error.underlying is Boom)
        #expect(error.path.map(\.description) == ["Owner", "Provider<Cache>", "Cache"])
        #expect(error.path[1].isDeferred)
        #expect(error.path[1].scope == "per-call")
    }

    @Test func autoregisterRecordsRelationshipEdgesByKind() throws {
        final class Owner: Sendable {
            init(lazy: Lazy<Cache>, provider: Provider<Cache>, assisted: Provider<Cache, Int>,
                 all: All<Cache>, direct: Cache) {}
        }
        let app = Container(name: "app")
        let collected = InfoCollector()
        app.addBehavior(collected)
        try app.autoregister(Owner.self, initializer: Owner.init)
        let dependencies = try #require(collected.infos.last?.dependencies)
        #expect(dependencies == [
            Dependency(Cache.self, kind: .deferred),
            Dependency(Cache.self, kind: .perCall),
            Dependency(Cache.self, kind: .assisted, arguments: Int.self),
            Dependency(Cache.self, kind: .collection),
            Dependency(Cache.self),
        ])
        #expect(dependencies.map(\.kind.isDeferred) == [true, true, true, false, false])
        #expect(Dependency(Cache.self).kind == .direct)
    }

    @Test func optionalParametersAreNilOnlyWhenNothingIsRegistered() throws {
        let app = Container(name: "app")
        try app.autoregister(Store.self, initializer: Store.init)
        let bare = try app.resolve(Store.self)
        #expect(bare.cache == nil)
        #expect(bare.lazyCache == nil)
        try app.register(Cache.self, scope: .singleton) { _ in Cache() }
        let full = try app.resolve(Store.self)
        let cache = try #require(full.cache)
        #expect(try full.lazyCache?.value === cache)
    }

    @Test func anOptionalParameterWhoseFactoryFailsStillThrows() throws {
        let app = Container(name: "app")
        try app.register(Cache.self) { _ in throw FactoryError(reason: "disk full") }
        try app.autoregister(Store.self, initializer: Store.init)
        let error = try #require(throws: ResolutionError.self) { try app.resolve(Store.self) }
        #expect(error.code == .factoryFailed)
    }

    @Test(.timeLimit(.minutes(1)))
    func aLazyReadInsideAnAsyncFactoryResolvesAndALazyOfAnAsyncTargetIsRefused() async throws {
        final class Session: Sendable {
            let cache: Cache
            init(cache: Cache) { self.cache = cache }
        }
        let app = Container(name: "app")
        try app.register(Cache.self, scope: .singleton) { _ in Cache() }
        try app.registerAsync(Session.self, scope: .singleton) { r in
            let lazy = try await r.resolveAsync(Lazy<Cache>.self)
            return Session(cache: try lazy.value)
        }
        let session = try await app.resolveAsync(Session.self)
        #expect(try session.cache === app.resolve(Cache.self))
        // Its reads are synchronous, so a `Lazy` of a service only `resolveAsync` builds is refused when it is
        // injected, as a `Provider` is, naming the relationship that works.
        let error = try #require(throws: ResolutionError.self) { try app.resolve(Lazy<Session>.self) }
        #expect(error.code == .asyncResolutionRequired)
        #expect(error.path.map(\.description) == ["Lazy<Session>", "Session"])
        #expect(error.path.first?.isDeferred == true)
        #expect(error.description.contains("so a Lazy cannot build it synchronously; inject AsyncProvider<Session>"))
    }

    @Test func aChildContainerWhoseSingletonHoldsRelationshipsIsFreed() throws {
        final class Holder: Sendable {
            let lazy: Lazy<Cache>
            let provider: Provider<Cache>
            init(lazy: Lazy<Cache>, provider: Provider<Cache>) {
                self.lazy = lazy
                self.provider = provider
            }
        }
        let app = Container(name: "app")
        try app.register(Cache.self) { _ in Cache() }
        weak var released: Container?
        do {
            let request = app.child(name: "request")
            try request.autoregister(Holder.self, scope: .singleton, initializer: Holder.init)
            _ = try request.resolve(Holder.self)
            released = request
        }
        #expect(released == nil)
        do {
            let request = app.child(name: "plain")
            try request.register(Cache.self, scope: .singleton) { _ in Cache() }
            _ = try request.resolve(Cache.self)
            released = request
        }
        #expect(released == nil)
    }

    @Test func aRelationshipUsedAfterItsContainerWasReleasedThrows() throws {
        let app = Container(name: "app")
        try app.register(Cache.self) { _ in Cache() }
        let (lazy, provider) = try {
            let request = app.child(name: "request")
            return (try request.resolve(Lazy<Cache>.self), try request.resolve(Provider<Cache>.self))
        }()
        let lazyError = try #require(throws: ResolutionError.self) { try lazy.value }
        #expect(lazyError.code == .containerClosed)
        #expect(lazyError.description.contains("request"))
        #expect(lazyError.path.first?.isDeferred == true)
        // Released, not closed: nobody called close(), and the headline does not say so.
        #expect(
            lazyError.message.hasPrefix("Cannot resolve Lazy<Cache>: request, the container it was made in, is gone."),
            "\(lazyError.message)"
        )
        let providerError = try #require(throws: ResolutionError.self) { try provider() }
        #expect(providerError.code == .containerClosed)
        #expect(providerError.message.contains(": request, the container it was made in, is gone."), "\(providerError)")
    }

    @Test func aLazyKeepsItsValueAfterItsContainerIsReleased() throws {
        let app = Container(name: "app")
        try app.register(Cache.self) { _ in Cache() }
        weak var released: Container?
        let lazy: Lazy<Cache>
        do {
            let request = app.child(name: "request")
            lazy = try request.resolve(Lazy<Cache>.self)
            released = request
            _ = try lazy.value
        }
        #expect(released == nil)
        #expect(lazy.isResolved)
    }

    @Test func resolveIfRegisteredGivesARelationshipWhenItsTargetIsRegistered() throws {
        let app = Container(name: "app")
        #expect(try app.resolveIfRegistered(Lazy<Cache>.self) == nil)
        #expect(try app.resolveIfRegistered(Provider<Cache>.self) == nil)
        try app.register(Cache.self, scope: .singleton) { _ in Cache() }
        let lazy = try #require(try app.resolveIfRegistered(Lazy<Cache>.self))
        #expect(try lazy.value === app.resolve(Cache.self))
        #expect(try app.resolveIfRegistered(Provider<Cache>.self) != nil)
    }

    @Test func relationshipsOfRelationshipsAndOptionals() throws {
        let app = Container(name: "app")
        try app.register(Cache.self) { _ in Cache() }
        let nested = try app.resolve(Lazy<Provider<Cache>>.self)
        #expect(try nested.value() !== nested.value())
        let optional = try app.resolve(Lazy<Cache?>.self)
        #expect(try optional.value != nil)
        #expect(try app.resolve(Lazy<PlainA?>.self).value == nil)
        #expect(throws: ResolutionError.self) { try app.resolve(Lazy<Lazy<PlainA>>.self) }
    }

    /// A relationship to a relationship whose target is missing (`Provider<Lazy<Gateway>>`) names the target:
    /// nothing registers `Lazy<Gateway>`, and a message about it would send the reader after a registration of it.
    @Test(arguments: [false, true])
    func aRelationshipToAMissingRelationshipTargetNamesTheTarget(throughAFactory: Bool) throws {
        final class Gateway: Sendable {}
        final class Owner: Sendable { init(gateways: Provider<Lazy<Gateway>>) {} }
        let app = Container(name: "app")
        try app.autoregister(Owner.self, initializer: Owner.init)
        let error = try #require(throws: ResolutionError.self) {
            if throughAFactory { _ = try app.resolve(Owner.self) } else {
                _ = try app.resolve(Provider<Lazy<Gateway>>.self)
            }
        }
        #expect(error.code == .notRegistered)
        #expect(error.message.hasPrefix("Cannot resolve Gateway: nothing is registered under that key."), "\(error)")
    }
}

/// Keeps every registration a container reports.
final class InfoCollector: ContainerBehavior {
    private let storage = Lock<[RegistrationInfo]>([])
    var infos: [RegistrationInfo] { storage.withLock { $0 } }

    func didRegister(_ info: RegistrationInfo, in container: Container) throws {
        storage.withLock { $0.append(info) }
    }
}
