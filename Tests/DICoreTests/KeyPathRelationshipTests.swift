import DICore
import DITestSupport
import Testing

fileprivate final class Ticker: Sendable {
    let label: String
    init(label: String) { self.label = label }
}

fileprivate protocol Tracker: Sendable {}
fileprivate final class Telemetry: Tracker {}

fileprivate final class Engine: Sendable {
    let pump: Lazy<Pump>
    init(pump: Lazy<Pump>) { self.pump = pump }
}

fileprivate final class Pump: Sendable {
    let engine: Engine
    init(engine: Engine) { self.engine = engine }
}

/// Counts how often the default of `\.countedTicker` ran.
fileprivate let tickerBuilds = Counter()

extension ServiceKeys {
    fileprivate var sharedTicker: ServiceKey<Ticker> { .init(scope: .singleton) { _ in Ticker(label: "default") } }
    fileprivate var freshTicker: ServiceKey<Ticker> { .init { _ in Ticker(label: "fresh") } }
    fileprivate var countedTicker: ServiceKey<Ticker> {
        .init { _ in
            tickerBuilds.increment()
            return Ticker(label: "counted")
        }
    }
    fileprivate var tracker: ServiceKey<any Tracker> { .required() }
    fileprivate var engine: ServiceKey<Engine> { .init(scope: .singleton) { r in Engine(pump: try r.lazy(\.pump)) } }
    fileprivate var pump: ServiceKey<Pump> { .init { r in Pump(engine: try r.resolve(\.engine)) } }
}

/// Relationships to keys of the keypath registry: `lazy(\.key)` and `provider(\.key)`.
@Suite struct KeyPathRelationshipTests {
    @Test func aLazyKeyResolvesOnFirstReadThenKeepsTheValue() throws {
        let app = Container(name: "app")
        let before = tickerBuilds.value
        let lazy = try app.lazy(\.countedTicker)
        #expect(!lazy.isResolved)
        #expect(tickerBuilds.value == before)
        let first = try lazy.value
        #expect(first.label == "counted")
        #expect(try lazy.value === first)
        #expect(try lazy.withValue { $0 } === first)
        #expect(tickerBuilds.value == before + 1)
    }

    @Test func aLazyKeyHonoursAnOverrideInTheContainerItWasMadeIn() throws {
        let app = Container(name: "app")
        let checkout = app.child(name: "checkout")
        try checkout.register(\.sharedTicker) { _ in Ticker(label: "checkout") }
        #expect(try checkout.lazy(\.sharedTicker).value.label == "checkout")
        #expect(try app.lazy(\.sharedTicker).value.label == "default")
        #expect(try app.lazy(\.sharedTicker).value === app.resolve(\.sharedTicker))
    }

    @Test func aProviderKeyResolvesOnEveryCallHonouringTheLifetime() throws {
        let app = Container(name: "app")
        let fresh = try app.provider(\.freshTicker)
        #expect(try fresh() !== fresh())
        #expect(try fresh().label == "fresh")
        let shared = try app.provider(\.sharedTicker)
        #expect(try shared() === shared())
        #expect(try shared() === app.resolve(\.sharedTicker))
    }

    @Test func anUnprovidedRequiredKeyFailsWhenInjectedNamingTheKey() throws {
        let app = Container(name: "app")
        let lazyError = try #require(throws: ResolutionError.self) { try app.lazy(\.tracker) }
        #expect(lazyError.code == .requiredKeyMissing)
        #expect(lazyError.description.contains("\\.tracker"))
        #expect(lazyError.description.contains("container.register(\\.tracker)"))
        let providerError = try #require(throws: ResolutionError.self) { try app.provider(\.tracker) }
        #expect(providerError.code == .requiredKeyMissing)
        // Inside a factory, the path names the owner.
        try app.register(Ticker.self) { r in
            _ = try r.lazy(\.tracker)
            return Ticker(label: "never")
        }
        let inFactory = try #require(throws: ResolutionError.self) { try app.resolve(Ticker.self) }
        #expect(inFactory.code == .requiredKeyMissing)
        #expect(inFactory.path.map(\.description) == ["Ticker", "\\.tracker"])
    }

    @Test func aRequiredKeyProvidedByTheAppResolves() throws {
        let app = Container(name: "app")
        try app.register(\.tracker) { _ in Telemetry() }
        let checkout = app.child(name: "checkout")
        #expect(try checkout.lazy(\.tracker).value is Telemetry)
        #expect(try checkout.provider(\.tracker)() is Telemetry)
    }

    @Test func aCycleThroughALazyKeyIsNoConstructionCycle() throws {
        let app = Container(name: "app")
        let engine = try app.resolve(\.engine)
        #expect(try engine.pump.value.engine === engine)
    }

    @Test func aDeferredKeyErrorCarriesThePathFromTheOwner() throws {
        let app = Container(name: "app")
        try app.register(\.freshTicker) { _ in throw FactoryError(reason: "no ticker") }
        let lazy = try app.lazy(\.freshTicker)
        let error = try #require(throws: ResolutionError.self) { try lazy.value }
        #expect(error.code == .factoryFailed)
        #expect(error.path.first?.isDeferred == true)
        #expect(error.path.map(\.description) == ["Lazy<Ticker>", "\\.freshTicker"])
        let providerError = try #require(throws: ResolutionError.self) { try app.provider(\.freshTicker)() }
        #expect(providerError.path.first?.isDeferred == true)
    }

    @Test func aClosedContainerRefusesKeyRelationships() throws {
        let app = Container(name: "app")
        let request = app.child(name: "request")
        let provider = try request.provider(\.freshTicker)
        request.close()
        #expect(throws: ResolutionError.self) { try request.lazy(\.freshTicker) }
        let error = try #require(throws: ResolutionError.self) { try provider() }
        #expect(error.code == .containerClosed)
    }
}
