import DICore
import DIPropertyWrappers
import Observation
import Testing

private final class CheckoutModel: ContainerProviding {
    let container: Container
    @Injection var logger: any Logger
    @Injection(name: "primary") var database: Database
    @Injection var cache: Cache?

    init(container: Container) { self.container = container }
}

@MainActor @Observable
private final class ProfileModel: ContainerProviding {
    nonisolated let container: Container
    var visits = 0
    @ObservationIgnored @Injection var logger: any Logger
    @ObservationIgnored @Inject(name: "primary") var database: Database
    @ObservationIgnored @LazyInject(name: "primary") var primary: Database

    init(container: Container) { self.container = container }
}

@Suite struct InjectionTests {
    @Test func resolvesFromTheOwnersContainerOnFirstRead() throws {
        let (app, checkout) = try makeApp()
        let builds = Counter()
        try checkout.register(Cache.self) { _ in
            builds.increment()
            return Cache()
        }
        let model = withContainer(app) { CheckoutModel(container: checkout) }   // ambient is ignored
        #expect(builds.value == 0)
        #expect(model.logger.label == "checkout")
        #expect(model.database.name == "primary")
        let cache = model.cache
        #expect(cache != nil)
        #expect(model.cache === cache)
        #expect(builds.value == 1)
    }

    @Test func aValueSetByHandWins() throws {
        let (_, checkout) = try makeApp()
        let model = CheckoutModel(container: checkout)
        model.logger = ConsoleLogger(label: "by hand")
        #expect(model.logger.label == "by hand")

        let resolvedFirst = CheckoutModel(container: checkout)
        #expect(resolvedFirst.logger.label == "checkout")
        resolvedFirst.logger = ConsoleLogger(label: "replaced")
        #expect(resolvedFirst.logger.label == "replaced")
    }

    @Test func optionalIsNilWhenNothingIsRegistered() throws {
        let (_, checkout) = try makeApp()
        #expect(CheckoutModel(container: checkout).cache == nil)
    }

    @Test func missingServiceReportsTheDiagnosticAndTheDeclaration() throws {
        let empty = Container(name: "empty")
        let error = try #require(throws: InjectionError.self) {
            try Injection<Database>(name: "primary", fileID: "App/Checkout.swift", line: 9).resolve(from: empty)
        }
        #expect(error.wrapper == "@Injection")
        #expect(error.description.contains("@Injection at App/Checkout.swift:9 could not inject Database \"primary\""))
        #expect(error.resolutionError?.code == .notRegistered)
        // Under another name the fix goes in the wrapper.
        let app = Container(name: "app")
        try app.register(Database.self, name: "replica") { _ in Database(name: "replica") }
        let renamed = try #require(throws: InjectionError.self) {
            try Injection<Database>(name: "primary", fileID: "App/Checkout.swift", line: 9).resolve(from: app)
        }
        #expect(renamed.description.hasSuffix("fix:       write @Injection(name: \"replica\") at App/Checkout.swift:9"),
                "\(renamed)")
    }

    @MainActor @Test func worksInObservableMainActorClasses() throws {
        let (_, checkout) = try makeApp()
        let model = withContainer(checkout) { ProfileModel(container: checkout) }
        #expect(model.logger.label == "checkout")
        #expect(model.database.name == "primary")
        #expect(model.primary === model.database)

        let changed = Counter()
        withObservationTracking {
            _ = model.visits
            _ = model.logger
        } onChange: {
            changed.increment()
        }
        model.logger = ConsoleLogger(label: "ignored by observation")
        #expect(changed.value == 0)
        model.visits += 1
        #expect(changed.value == 1)
    }
}
