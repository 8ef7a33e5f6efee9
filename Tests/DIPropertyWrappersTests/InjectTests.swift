import DICore
import DIPropertyWrappers
import DITestSupport
import Testing

private final class ViewModel {
    @Inject var logger: any Logger
    @Inject(name: "primary") var database: Database
    @Inject var cache: Cache?
}

/// `@Inject` in a `Sendable` struct: the wrapper is `Sendable` because the services are.
private struct Handler: Sendable {
    @Inject var logger: any Logger
}

private actor Worker {
    @Inject var logger: any Logger

    func label() -> String { logger.label }
}

@MainActor
private final class Screen {
    @Inject var logger: any Logger
}

private final class Page {
    @Inject var logger: any Logger
}

/// Never registered anywhere.
private struct Unregistered {}

/// A type whose property cannot be injected.
private struct NeedsUnregistered {
    @Inject var missing: Unregistered
}

/// The same, with a key the app never provides.
private struct NeedsMissingKey {
    @Injected(\.analytics) var analytics
}

@Suite struct InjectTests {
    /// A property that cannot be injected stops the program with the wrapper's error: the wrapper, the
    /// property's place and the service it could not resolve.
    @Test func aPropertyThatCannotBeInjectedStopsWithItsError() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let app = Container(name: "app")
            withContainer(app) { _ = NeedsUnregistered() }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("@Inject at DIPropertyWrappersTests/InjectTests.swift:"), "\(message)")
        #expect(!message.contains("resolveRequired"), "the wrapper's failure is not a resolveRequired's: \(message)")
        #expect(message.contains("Unregistered"), "\(message)")
        #expect(message.contains("InjectTests.swift"), "\(message)")
    }

    @Test func aKeyThatCannotBeInjectedStopsWithItsError() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let app = Container(name: "app")
            withContainer(app) { _ = NeedsMissingKey() }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("@Injected at DIPropertyWrappersTests/InjectTests.swift:"), "\(message)")
        #expect(message.contains("analytics"), "\(message)")
    }

    @Test func resolvesWhenTheOwnerIsCreatedFromTheAmbientContainer() throws {
        let (app, checkout) = try makeApp()
        let inCheckout = withContainer(checkout) { ViewModel() }
        #expect(inCheckout.logger.label == "checkout")
        #expect(inCheckout.database.name == "primary")
        #expect(withContainer(app) { ViewModel() }.logger.label == "app")
    }

    @Test func resolvesAtCreationNotAtTheFirstRead() throws {
        let (_, checkout) = try makeApp()
        let other = Container(name: "other")
        try other.register((any Logger).self) { _ in ConsoleLogger(label: "other") }
        let model = withContainer(checkout) { ViewModel() }
        let label = withContainer(other) { model.logger.label }
        #expect(label == "checkout")
    }

    @Test func optionalIsNilWhenNothingIsRegistered() throws {
        let (_, checkout) = try makeApp()
        #expect(withContainer(checkout) { ViewModel() }.cache == nil)
        try checkout.register(Cache.self, scope: .singleton) { _ in Cache() }
        #expect(withContainer(checkout) { ViewModel() }.cache != nil)
    }

    @Test func optionalStillReportsAFailingFactory() throws {
        let app = Container(name: "app")
        try app.register(Cache.self) { _ in throw FactoryError(reason: "disk full") }
        let error = try #require(throws: InjectionError.self) {
            try Inject<Cache?>.resolve(name: nil, from: app, fileID: "App/Model.swift", line: 7)
        }
        #expect(error.resolutionError?.code == .factoryFailed)
        #expect(error.description.contains("disk full"))
    }

    @Test func missingServiceReportsTheFullDiagnosticAndTheProperty() throws {
        let (app, _) = try makeApp()
        let feature = app.child(name: "feature")
        let error = try #require(throws: InjectionError.self) {
            try Inject<Database>.resolve(name: "primray", from: feature, fileID: "App/Model.swift", line: 12)
        }
        #expect(error.code == .resolutionFailed)
        #expect(error.wrapper == "@Inject")
        #expect(error.location == SourceLocation(fileID: "App/Model.swift", line: 12))
        #expect(error.resolutionError?.code == .notRegistered)
        let text = error.description
        #expect(text.contains("@Inject at App/Model.swift:12 could not inject Database \"primray\" from feature."))
        #expect(text.contains("ResolutionError.notRegistered: Cannot resolve Database \"primray\""))
        #expect(text.contains("searched:  feature → app"))
        #expect(text.contains("Did you mean \"primary\"?"))
        // The name is written in the wrapper, so that is where the fix goes, not in a resolve call.
        #expect(text.contains("fix:       write @Inject(name: \"primary\") at App/Model.swift:12"), "\(text)")
        #expect(!text.contains("container.resolve("), "\(text)")
    }

    /// The classic slip: the owner made outside `withContainer(_:)`, so its wrappers resolve from
    /// `Container.shared`. The message says so, and only then.
    @Test func aMissFromTheSharedContainerSaysNoContainerMayBeBound() throws {
        final class NeverRegistered: Sendable {}
        let hint = "It resolved from Container.shared, which is what Container.current is when no container is "
            + "bound: if NeverRegistered is registered in another container, make the owner inside "
            + "withContainer(thatContainer) { … }."
        let shared = try #require(throws: InjectionError.self) {
            try Inject<NeverRegistered>.resolve(name: nil, from: Container.shared, fileID: "App/Model.swift", line: 3)
        }
        #expect(shared.message.hasSuffix(hint), "\(shared)")
        let named = Container(name: "shared")
        let other = try #require(throws: InjectionError.self) {
            try Inject<NeverRegistered>.resolve(name: nil, from: named, fileID: "App/Model.swift", line: 3)
        }
        #expect(!other.message.contains("Container.shared"), "\(other)")
    }

    /// A wrapper resolves synchronously, so a service with only an `async` factory needs the relationship that
    /// awaits it; the first line names it, with the registration's name, and it works.
    @Test func anAsyncOnlyServiceNamesTheAsyncProviderToInject() async throws {
        final class Store: Sendable { init() async {} }
        let app = Container(name: "app")
        try app.registerAsync(Store.self, name: "main", scope: .singleton) { _ in await Store() }
        let error = try #require(throws: InjectionError.self) {
            try Inject<Store>.resolve(name: "main", from: app, fileID: "App/Model.swift", line: 3)
        }
        #expect(error.message.hasSuffix(" A property wrapper resolves synchronously: inject AsyncProvider<Store> "
            + "instead (`@Inject(name: \"main\") var store: AsyncProvider<Store>`) and call `try await store()`."),
            "\(error)")
        let provider = try Inject<AsyncProvider<Store>>.resolve(
            name: "main", from: app, fileID: "App/Model.swift", line: 3
        )
        _ = try await provider()
        // A dependency's async factory is its dependent's problem, not the wrapper's: no such hint.
        final class Repository: Sendable { init(store: Store) {} }
        try app.registerAsync(Store.self, scope: .singleton) { _ in await Store() }
        try app.autoregister(Repository.self, initializer: Repository.init)
        let deeper = try #require(throws: InjectionError.self) {
            try Inject<Repository>.resolve(name: nil, from: app, fileID: "App/Model.swift", line: 4)
        }
        #expect(!deeper.message.contains("AsyncProvider"), "\(deeper)")
    }

    /// The relationship named is of the service itself, optional when the property was, in a declaration whose
    /// property is named after the type; it works as written.
    @Test func anOptionalAsyncOnlyServiceNamesAnOptionalAsyncProvider() async throws {
        final class Database: Sendable { init() async {} }
        let app = Container(name: "app")
        try app.registerAsync(Database.self, scope: .singleton) { _ in await Database() }
        let error = try #require(throws: InjectionError.self) {
            try Inject<Database?>.resolve(name: nil, from: app, fileID: "App/Model.swift", line: 3)
        }
        #expect(error.message.hasSuffix(" inject AsyncProvider<Database>? instead (`@Inject var database: "
            + "AsyncProvider<Database>?`) and call `try await database?()`."), "\(error)")
        let provider = try Inject<AsyncProvider<Database>?>.resolve(
            name: nil, from: app, fileID: "App/Model.swift", line: 3
        )
        #expect(try await provider?() === app.resolveAsync(Database.self))
    }

    final class HTTPClientStub {}
    protocol Ticker {}
    struct SKU {}
    struct Paged<Item> {}

    @Test(arguments: [
        (Int.self as Any.Type, "int"), ((any Ticker).self, "ticker"), (HTTPClientStub.self, "httpClientStub"),
        (SKU.self, "sku"), (Paged<String>.self, "paged"), ([Int].self, "service"),
    ])
    func aPropertyIsNamedAfterItsType(type: Any.Type, name: String) {
        #expect(InjectionError.propertyName(for: type) == name)
    }

    /// When another tree registers the service (the app's own root, not bound), the first line names it.
    @Test func aMissFromTheSharedContainerNamesTheContainerToBind() throws {
        final class RegisteredInTheApp: Sendable {}
        let app = Container(name: "app")
        try app.register(RegisteredInTheApp.self) { _ in RegisteredInTheApp() }
        let error = try #require(throws: InjectionError.self) {
            try Inject<RegisteredInTheApp>.resolve(
                name: nil, from: Container.shared, fileID: "App/Model.swift", line: 3
            )
        }
        #expect(error.message == "@Inject at App/Model.swift:3 could not inject RegisteredInTheApp from shared. It "
            + "resolved from Container.shared, which is what Container.current is when no container is bound; "
            + "RegisteredInTheApp is registered in app: make the owner inside withContainer(app) { … }.")
        #expect(error.description.contains("fix:       resolve it from app: call app.resolve("), "\(error)")
    }

    @Test func valueCanBeReplacedByHand() throws {
        let (_, checkout) = try makeApp()
        var handler = withContainer(checkout) { Handler() }
        handler.logger = ConsoleLogger(label: "by hand")
        #expect(handler.logger.label == "by hand")
    }

    @Test func worksInSendableStructsAndActors() async throws {
        let (_, checkout) = try makeApp()
        let handler = withContainer(checkout) { Handler() }
        let fromAnotherTask = await Task.detached { handler.logger.label }.value
        #expect(fromAnotherTask == "checkout")

        let worker = withContainer(checkout) { Worker() }
        #expect(await worker.label() == "checkout")
    }

    @MainActor @Test func worksInMainActorClasses() throws {
        let (_, checkout) = try makeApp()
        let screen = withContainer(checkout) { Screen() }
        #expect(screen.logger.label == "checkout")
    }

    @Test func insideAFactoryResolvesFromTheFactorysContainer() throws {
        let (app, checkout) = try makeApp()
        try app.register(Page.self) { _ in Page() }
        // Transient: its dependencies come from the container that was asked, whatever is ambient.
        let page = try withContainer(Container(name: "unrelated")) { try checkout.resolve(Page.self) }
        #expect(page.logger.label == "checkout")
    }

    @Test func aParentsSingletonDoesNotCaptureTheAmbientOverride() throws {
        let (app, checkout) = try makeApp()
        try app.register(Handler.self, scope: .singleton) { _ in Handler() }
        let handler = try withContainer(checkout) { try checkout.resolve(Handler.self) }
        #expect(handler.logger.label == "app")
    }

    @Test func resolvesThroughTheSharedContainerWhenNothingIsBound() throws {
        // Container.shared is process-wide; this test only reads a name registered for it alone.
        try Container.shared.register(String.self, name: "InjectTests.shared") { _ in "shared value" }
        final class Reader {
            @Inject(name: "InjectTests.shared") var value: String
        }
        #expect(Reader().value == "shared value")
    }
}

/// An owner that names the container its logger came from, or "none" where no logger is registered.
private final class AmbientProbe {
    @Inject var logger: (any Logger)?
    var label: String { logger?.label ?? "none" }
}

/// Where each `@Inject` resolves when bindings nest, move between tasks and run on many threads at once: the
/// wrapper reads the ambient container without copying it, and must still see exactly what
/// `Container.current` sees.
@Suite(.timeLimit(.minutes(1))) struct InjectAmbientTests {
    /// A container whose logger is labelled with the container's name.
    private static func labelled(_ name: String, parent: Container? = nil) throws -> Container {
        let container = parent?.child(name: name) ?? Container(name: name)
        try container.register((any Logger).self, scope: .singleton) { _ in ConsoleLogger(label: name) }
        return container
    }

    @Test func aTaskLocalBindingInsideWithContainerWins() throws {
        let outer = try Self.labelled("outer")
        let inner = try Self.labelled("inner")
        let labels = withContainer(outer) {
            let direct = Container.$current.withValue(inner) { AmbientProbe().label }
            let nested = withContainer(inner) { AmbientProbe().label }
            return [direct, nested, AmbientProbe().label]
        }
        #expect(labels == ["inner", "inner", "outer"])
    }

    @Test func withContainerInsideATaskLocalBindingWins() async throws {
        let outer = try Self.labelled("outer")
        let inner = try Self.labelled("inner")
        let labels = await Container.$current.withValue(outer) {
            await Task.yield()
            let nested = withContainer(inner) { AmbientProbe().label }
            return [nested, AmbientProbe().label]
        }
        #expect(labels == ["inner", "outer"])
    }

    @Test func childAndUnstructuredTasksInheritTheBinding() async throws {
        let checkout = try Self.labelled("checkout")
        let labels = await withContainer(checkout) {
            async let fromAsyncLet = AmbientProbe().label
            let fromGroup = await withTaskGroup(of: String.self) { group in
                group.addTask { AmbientProbe().label }
                return await group.next() ?? "none"
            }
            return [await fromAsyncLet, fromGroup]
        }
        // A task made inside a synchronous binding keeps it after that binding has returned.
        let task = withContainer(checkout) { Task { AmbientProbe().label } }
        #expect(labels + [await task.value] == ["checkout", "checkout", "checkout"])
        #expect(await Task.detached { AmbientProbe().label }.value == "none")
    }

    @Test func parallelTasksEachSeeTheirOwnBinding() async throws {
        let app = try Self.labelled("app")
        let containers = try (0..<8).map { try Self.labelled("task \($0)", parent: app) }
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for container in containers {
                group.addTask {
                    await withContainer(container) {
                        var mismatches = 0
                        for round in 0..<200 {
                            if round % 16 == 0 { await Task.yield() }
                            if AmbientProbe().label != container.name { mismatches += 1 }
                        }
                        return mismatches
                    }
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }

    @Test func parallelThreadsEachSeeTheirOwnBinding() async throws {
        let app = try Self.labelled("app")
        let containers = try (0..<8).map { try Self.labelled("thread \($0)", parent: app) }
        let results = try #require(await raceOnThreads(8) { index in
            let container = containers[index]
            let bound = withContainer(container) {
                (0..<500).allSatisfy { _ in AmbientProbe().label == container.name }
            }
            // Once the binding returned, this thread sees the shared container again (no logger there).
            return bound && AmbientProbe().label == "none"
        }, "threads hung")
        #expect(results == Array(repeating: true, count: 8))
    }
}
