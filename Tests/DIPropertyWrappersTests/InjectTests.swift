import DICore
import DIPropertyWrappers
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

@Suite struct InjectTests {
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
