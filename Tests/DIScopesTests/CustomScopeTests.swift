import DICore
import DIScopes
import Testing

/// Wraps a `DictionaryStorage` and records what the container asks, and the keys it used.
final class RecordingStorage: InstanceStorage {
    let inner = DictionaryStorage()
    let log = Log()
    private let seen = Lock<[InstanceKey]>([])

    var keys: [InstanceKey] { seen.withLock { $0 } }

    func instance(for key: InstanceKey) -> StoredInstance? {
        let found = inner.instance(for: key)
        log.append(found == nil ? "miss \(key.service)" : "hit \(key.service)")
        return found
    }

    func store(_ instance: StoredInstance, for key: InstanceKey) {
        seen.withLock { if !$0.contains(key) { $0.append(key) } }
        log.append("store \(key.service)")
        inner.store(instance, for: key)
    }

    func release(_ key: InstanceKey) -> StoredInstance? {
        log.append("release \(key.service)")
        return inner.release(key)
    }
}

/// Broken on purpose: keys instances by service name, as a cache keyed by type would.
final class ServiceNameKeyedStorage: InstanceStorage {
    private let instances = Lock<[String: StoredInstance]>([:])
    func instance(for key: InstanceKey) -> StoredInstance? { instances.withLock { $0[key.service] } }
    func store(_ instance: StoredInstance, for key: InstanceKey) { instances.withLock { $0[key.service] = instance } }
    func release(_ key: InstanceKey) -> StoredInstance? { instances.withLock { $0.removeValue(forKey: key.service) } }
}

@Suite(.timeLimit(.minutes(1))) struct CustomScopeTests {
    @Test func theStorageIsAskedFirstAndKeepsTheOneInstance() throws {
        let storage = RecordingStorage()
        let tree = try Tree(widget: .custom("recorded", storage: storage))
        let first = try tree.feature.resolve(Widget.self)
        #expect(try tree.screen.resolve(Widget.self) === first)
        #expect(try tree.app.resolve(Widget.self) === first)
        #expect(storage.log.entries == ["miss Widget", "miss Widget", "store Widget", "hit Widget", "hit Widget"])
        #expect(storage.inner.count == 1)
        #expect(tree.builds.value == 1)
    }

    @Test(arguments: Order.allCases)
    func dependenciesComeFromTheRegisteringContainer(order: Order) throws {
        let tree = try Tree(widget: .custom("dictionary", storage: DictionaryStorage()))
        let (parent, child) = try order.resolve(
            parent: { try tree.app.resolve(Widget.self) },
            child: { try tree.feature.resolve(Widget.self) }
        )
        #expect(parent === child)
        #expect(child.origin == "app")
    }

    @Test func whenTheStorageLetsGoTheNextResolveBuildsANewOne() throws {
        let storage = DictionaryStorage()
        let tree = try Tree(widget: .custom("session", storage: storage))
        let first = try tree.feature.resolve(Widget.self)
        let released = storage.releaseAll()
        #expect(released.count == 1)
        #expect(released.first?.value as? Widget === first)
        #expect(released.first?.key.service == "Widget")
        #expect(released.first?.key.container == "app")
        #expect(try tree.feature.resolve(Widget.self) !== first)
        #expect(tree.builds.value == 2)
    }

    @Test func twoNamesOfOneTypeHaveTwoKeysAndNeverShare() throws {
        let storage = RecordingStorage()
        let scope = Scope.custom("recorded", storage: storage)
        let app = Container(name: "app")
        try app.register(AppRouter.self, name: "main", scope: scope) { _ in AppRouter() }
        try app.register(AppRouter.self, name: "modal", scope: scope) { _ in AppRouter() }
        #expect(try app.resolve(AppRouter.self, name: "main") !== app.resolve(AppRouter.self, name: "modal"))
        #expect(storage.keys.count == 2)
        #expect(Set(storage.keys).count == 2)
        #expect(storage.keys.map(\.description) == [#"AppRouter "main" in app"#, #"AppRouter "modal" in app"#])
    }

    @Test func theSameKeyRegisteredInTwoContainersHasTwoKeys() throws {
        let storage = DictionaryStorage()
        let scope = Scope.custom("shared", storage: storage)
        let app = Container(name: "app")
        let child = app.child(name: "child")
        try app.register(AppRouter.self, scope: scope) { _ in AppRouter() }
        try child.register(AppRouter.self, scope: scope) { _ in AppRouter() }
        #expect(try app.resolve(AppRouter.self) !== child.resolve(AppRouter.self))
        #expect(storage.count == 2)
    }

    /// The same key registered in a parent and a child has the service text `AppRouter` twice; a storage
    /// keyed by that text hands the child the parent's instance, which the container refuses to use.
    @Test func aStorageThatMixesUpKeysIsReportedNotTrusted() throws {
        let storage = ServiceNameKeyedStorage()
        let sameText = Scope.custom("sameText", storage: storage)
        let other = Container(name: "other")
        let child = other.child(name: "child")
        try other.register(AppRouter.self, scope: sameText) { _ in AppRouter() }
        try child.register(AppRouter.self, scope: sameText) { _ in AppRouter() }
        _ = try other.resolve(AppRouter.self)
        let error = try #require(throws: ResolutionError.self) { try child.resolve(AppRouter.self) }
        #expect(error.code == .scopeUnavailable)
        #expect(error.description.contains("ServiceNameKeyedStorage"))
        #expect(error.description.contains("checkInstanceStorage"))
        #expect(error.description.contains("AppRouter in child"))
        #expect(error.description.contains("AppRouter in other"))
    }

    @Test func aliasesShareTheStoredInstance() throws {
        let storage = DictionaryStorage()
        let app = Container(name: "app")
        try app.register(AppRouter.self, scope: .custom("s", storage: storage)) { _ in AppRouter() }
            .implements((any Router).self)
        #expect(try app.resolve((any Router).self) === app.resolve(AppRouter.self))
        #expect(storage.count == 1)
        app.close()
        #expect(storage.count == 0)
    }

    @Test func asyncFactoriesAreStoredToo() async throws {
        let storage = DictionaryStorage()
        let app = Container(name: "app")
        let builds = Counter()
        try app.registerAsync(AppRouter.self, scope: .custom("s", storage: storage)) { _ in
            builds.increment()
            return AppRouter()
        }
        let router = try await app.resolveAsync(AppRouter.self)
        #expect(try await app.resolveAsync(AppRouter.self) === router)
        #expect(builds.value == 1)
        #expect(storage.count == 1)
    }

    @Test func customScopesAreToldApartByName() {
        let storage = DictionaryStorage()
        #expect(Scope.custom("session", storage: storage) == .custom("session", storage: DictionaryStorage()))
        #expect(Scope.custom("session", storage: storage) != .custom("user", storage: storage))
        #expect(Scope.custom("session", storage: storage).name == "session")
    }
}

@Suite(.timeLimit(.minutes(1))) struct CompositeStorageTests {
    @Test func aNewInstanceIsStoredIntoEveryStorage() throws {
        let first = DictionaryStorage(), second = DictionaryStorage()
        let tree = try Tree(widget: .custom("layered", storage: CompositeStorage(first, second)))
        let widget = try tree.app.resolve(Widget.self)
        #expect(first.count == 1 && second.count == 1)
        #expect(first.releaseAll().first?.value as? Widget === widget)
        #expect(second.releaseAll().first?.value as? Widget === widget)
    }

    @Test func theFirstStorageThatHasAnInstanceAnswersAndNothingIsCopiedBack() throws {
        let first = RecordingStorage(), second = RecordingStorage()
        let tree = try Tree(widget: .custom("layered", storage: CompositeStorage([first, second])))
        let original = try tree.app.resolve(Widget.self)
        let key = try #require(second.keys.first)
        let kept = try #require(second.inner.release(key))
        _ = first.inner.release(key)

        let rebuilt = try tree.app.resolve(Widget.self)     // both empty: built again, stored in both
        #expect(rebuilt !== original)
        second.inner.store(kept, for: key)                  // now first has `rebuilt`, second `original`
        #expect(try tree.app.resolve(Widget.self) === rebuilt, "the first storage answers")

        _ = first.inner.release(key)
        #expect(try tree.app.resolve(Widget.self) === original, "then the second, without a build")
        #expect(first.inner.count == 0, "the second storage's instance is not copied into the first")
        #expect(tree.builds.value == 2)
    }

    @Test func aReleaseReleasesFromEveryStorageAndDisposesOnce() throws {
        let first = DictionaryStorage(), second = DictionaryStorage()
        let scope = Scope.custom("layered", storage: CompositeStorage(first, second))
        let tree = try Tree(widget: scope)
        let widget = try tree.app.resolve(Widget.self)
        #expect(tree.app.reset(scope) == 1)
        #expect(first.count == 0 && second.count == 0)
        #expect(tree.log.entries == ["dispose \(widget.serial)"])
    }
}

/// A custom scope named like a built-in one would be taken for it (scopes are told apart by name): every way of
/// registering refuses it, names the clash, and keeps what was registered before.
@Suite struct CustomScopeNameTests {
    static let refusedNames = [
        "", "transient", "singleton", "scoped", "graph", "weak", "cached", #"matching("request")"#,
    ]

    @Test(arguments: refusedNames)
    func aBuiltInOrEmptyNameIsRefusedByEveryWayOfRegistering(name: String) async throws {
        let app = Container(name: "app")
        let scope = Scope.custom(name, storage: DictionaryStorage())
        try app.register(Counter.self, scope: .singleton) { _ in Counter() }
        let before = try app.resolve(Counter.self)
        let attempts: [(String, () async throws -> Void)] = [
            ("register", { try app.register(Counter.self, scope: scope) { _ in Counter() } }),
            ("autoregister", { try app.autoregister(Counter.self, scope: scope, initializer: Counter.init) }),
            ("registerAsync", { try app.registerAsync(Counter.self, scope: scope) { _ in Counter() } }),
        ]
        for (way, attempt) in attempts {
            do {
                try await attempt()
                Issue.record("\(way) accepted a custom scope named \"\(name)\"")
            } catch let error as RegistrationError {
                #expect(error.code == .invalidScope, "\(way)")
                let refusal = #"Cannot register Counter with .custom("\#(name)", storage: …) in app"#
                #expect(error.description.contains(refusal), "\(error)")
                #expect(error.description.contains(name.isEmpty ? "needs a name" : "built-in"), "\(error)")
                #expect(error.description.contains("a name of its own"), "\(error)")
            }
        }
        #expect(try app.resolve(Counter.self) === before)
    }

    @Test func aNameOfItsOwnIsAccepted() throws {
        let app = Container(name: "app")
        let scope = Scope.custom("request-cache", storage: DictionaryStorage())
        try app.register(Counter.self, scope: scope) { _ in Counter() }
        #expect(try app.resolve(Counter.self) === app.resolve(Counter.self))
    }
}
