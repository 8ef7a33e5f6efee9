import DICore
import DITestSupport
import Foundation
import Testing

@Suite struct LazyTests {
    final class Payments: Sendable {
        let id: Int
        init(id: Int) { self.id = id }
    }

    final class Checkout: Sendable {
        let payments: Lazy<Payments>
        init(payments: Lazy<Payments>) { self.payments = payments }
    }

    @Test func resolvesOnFirstReadThenKeepsTheValue() throws {
        let app = Container(name: "app")
        let built = Counter()
        try app.register(Payments.self) { _ in
            built.increment()
            return Payments(id: built.value)
        }
        try app.autoregister(Checkout.self, initializer: Checkout.init)
        let checkout = try app.resolve(Checkout.self)
        #expect(built.value == 0)
        #expect(!checkout.payments.isResolved)
        let first = try checkout.payments.value
        let second = try checkout.payments.value
        #expect(first === second)
        #expect(built.value == 1)
        #expect(checkout.payments.isResolved)
    }

    @Test func needsNoRegistrationOfItsOwn() throws {
        let app = Container(name: "app")
        try app.register((any Logger).self, scope: .singleton) { _ in ConsoleLogger(label: "app") }
        let lazy = try app.resolve(Lazy<any Logger>.self)
        #expect(try lazy.value.label == "app")
        try app.register((any Logger).self, name: "audit") { _ in ConsoleLogger(label: "audit") }
        #expect(try app.resolve(Lazy<any Logger>.self, name: "audit").value.label == "audit")
    }

    @Test func failsWhenInjectedIfTheTargetIsNotRegistered() throws {
        let app = Container(name: "app")
        try app.autoregister(Checkout.self, initializer: Checkout.init)
        let error = try #require(throws: ResolutionError.self) { try app.resolve(Checkout.self) }
        #expect(error.code == .notRegistered)
        #expect(error.path.map(\.description) == ["Checkout", "Payments"])
    }

    @Test func resolvesFromTheContainerTheOwnersDependenciesComeFrom() throws {
        let app = Container(name: "app")
        let checkout = app.child(name: "checkout")
        try app.register(Payments.self) { _ in Payments(id: 1) }
        try checkout.register(Payments.self) { _ in Payments(id: 2) }
        // A singleton's dependencies come from the registering container, so its Lazy does too.
        try app.autoregister(Checkout.self, scope: .singleton, initializer: Checkout.init)
        #expect(try checkout.resolve(Checkout.self).payments.value.id == 1)
        // A transient's come from the asking container.
        let transient = Container(name: "root")
        let child = transient.child(name: "child")
        try transient.register(Payments.self) { _ in Payments(id: 1) }
        try child.register(Payments.self) { _ in Payments(id: 2) }
        try transient.autoregister(Checkout.self, initializer: Checkout.init)
        #expect(try child.resolve(Checkout.self).payments.value.id == 2)
    }

    @Test func honoursTheTargetsLifetimeOnTheFirstRead() throws {
        let app = Container(name: "app")
        try app.register(Payments.self, scope: .singleton) { _ in Payments(id: 7) }
        let one = try app.resolve(Lazy<Payments>.self)
        let two = try app.resolve(Lazy<Payments>.self)
        #expect(try one.value === two.value)
        #expect(try one.value === app.resolve(Payments.self))
    }

    @Test func aFailedFirstReadKeepsNothingAndTheNextReadTriesAgain() throws {
        let app = Container(name: "app")
        let attempts = Counter()
        try app.register(Payments.self) { _ in
            attempts.increment()
            if attempts.value == 1 { throw FactoryError(reason: "offline") }
            return Payments(id: attempts.value)
        }
        let lazy = try app.resolve(Lazy<Payments>.self)
        #expect(throws: ResolutionError.self) { try lazy.value }
        #expect(!lazy.isResolved)
        #expect(try lazy.value.id == 2)
        #expect(try lazy.value.id == 2)
    }

    @Test(.timeLimit(.minutes(1)))
    func oneLazyReadFromSixteenThreadsBuildsOnce() async throws {
        let app = Container(name: "app")
        let built = Counter()
        try app.register(Payments.self) { _ in
            built.increment()
            // Long enough that the other threads arrive while the first one builds.
            usleep(20_000)
            return Payments(id: built.value)
        }
        let lazy = try app.resolve(Lazy<Payments>.self)
        let results = try #require(
            await raceOnThreads(16) { _ in (try? lazy.value).map(ObjectIdentifier.init) }, "threads hung"
        )
        let ids = results.compactMap { $0 ?? nil }
        #expect(ids.count == 16)
        #expect(Set(ids).count == 1)
        #expect(built.value == 1)
    }

    @Test(.timeLimit(.minutes(1)))
    func ownersMadeOnSixteenThreadsShareOneSingletonThroughTheirLazies() async throws {
        let app = Container(name: "app")
        let built = Counter()
        try app.register(Payments.self, scope: .singleton) { _ in
            built.increment()
            usleep(10_000)
            return Payments(id: built.value)
        }
        try app.autoregister(Checkout.self, initializer: Checkout.init)
        let results = try #require(await raceOnThreads(16) { _ in
            (try? app.resolve(Checkout.self).payments.value).map(ObjectIdentifier.init)
        }, "threads hung")
        let ids = results.compactMap { $0 ?? nil }
        #expect(ids.count == 16)
        #expect(Set(ids).count == 1)
        #expect(built.value == 1)
    }

    @Test func worksWithANonSendableTransient() throws {
        let app = Container(name: "app")
        try app.register(Formatter.self) { _ in Formatter() }
        let lazy = try app.resolve(Lazy<Formatter>.self)
        let formatter = try lazy.value
        formatter.pattern = "dd"
        #expect(try lazy.value.pattern == "dd")
    }

    @Test func anExplicitRegistrationOfTheLazyTypeWins() throws {
        let app = Container(name: "app")
        try app.register(Payments.self) { _ in Payments(id: 1) }
        let other = Container(name: "other")
        try other.register(Payments.self) { _ in Payments(id: 2) }
        try app.register(Lazy<Payments>.self) { _ in try other.resolve(Lazy<Payments>.self) }
        #expect(try app.resolve(Lazy<Payments>.self).value.id == 2)
    }

    @Test func resolvesThroughResolveAsync() async throws {
        let app = Container(name: "app")
        try app.register(Payments.self) { _ in Payments(id: 3) }
        let lazy = try await app.resolveAsync(Lazy<Payments>.self)
        #expect(try lazy.value.id == 3)
    }

    @Test func withValueLendsTheSameInstanceAsValueAndResolvesOnce() throws {
        let app = Container(name: "app")
        let built = Counter()
        try app.register(Payments.self) { _ in
            built.increment()
            return Payments(id: built.value)
        }
        let lazy = try app.resolve(Lazy<Payments>.self)
        let lent = try lazy.withValue { ObjectIdentifier($0) }
        #expect(lazy.isResolved)
        #expect(try lazy.withValue { ObjectIdentifier($0) } == lent)
        #expect(try ObjectIdentifier(lazy.value) == lent)
        #expect(built.value == 1)
    }

    @Test func withValueThrowsWhatTheFirstReadThrowsAndKeepsNothing() throws {
        let app = Container(name: "app")
        let attempts = Counter()
        try app.register(Payments.self) { _ in
            attempts.increment()
            if attempts.value == 1 { throw FactoryError(reason: "first") }
            return Payments(id: attempts.value)
        }
        let lazy = try app.resolve(Lazy<Payments>.self)
        let error = try #require(throws: ResolutionError.self) { try lazy.withValue { $0.id } }
        #expect(error.code == .factoryFailed)
        #expect(error.path.first?.isDeferred == true)
        #expect(!lazy.isResolved)
        #expect(try lazy.withValue { $0.id } == 2)
        // What the body throws comes through unchanged.
        #expect(throws: FactoryError(reason: "body")) { try lazy.withValue { _ in throw FactoryError(reason: "body") } }
    }

    @Test(.timeLimit(.minutes(1)))
    func withValueFromSixteenThreadsBuildsOnce() async throws {
        let app = Container(name: "app")
        let built = Counter()
        try app.register(Payments.self) { _ in
            built.increment()
            usleep(10_000)
            return Payments(id: built.value)
        }
        let lazy = try app.resolve(Lazy<Payments>.self)
        let ids = try #require(
            await raceOnThreads(16) { _ in try? lazy.withValue { ObjectIdentifier($0) } }, "threads hung"
        )
        #expect(ids.compactMap { $0 }.count == 16)
        #expect(Set(ids).count == 1)
        #expect(built.value == 1)
    }

    @Test func aLazyBuiltByHandIsResolvedToItsValue() throws {
        let payments = Payments(id: 7)
        let checkout = Checkout(payments: Lazy(value: payments))
        #expect(checkout.payments.isResolved)
        #expect(try checkout.payments.value === payments)
        #expect(try checkout.payments.withValue { $0.id } == 7)
        let formatter = Lazy(value: Formatter())
        #expect(try formatter.value === formatter.value)
    }

    /// A value type built by a transient factory: each build has a new serial, so a second build shows.
    struct Receipt: Sendable {
        let serial: Int
        let lines: [String]
    }

    @Test func copiesShareTheValueTheFirstReadOfAnyOfThemResolved() throws {
        let app = Container(name: "app")
        let built = Counter()
        try app.register(Receipt.self) { _ in
            built.increment()
            return Receipt(serial: built.value, lines: ["tea", "cake"])
        }
        let lazy = try app.resolve(Lazy<Receipt>.self)
        let copy = lazy
        #expect(!copy.isResolved)
        #expect(try lazy.value.serial == 1)
        #expect(copy.isResolved)
        #expect(try copy.value.serial == 1)
        #expect(try copy.withValue { $0.lines } == ["tea", "cake"])
        #expect(built.value == 1)
    }

    @Test(.timeLimit(.minutes(1)))
    func valueTypeReadFromSixteenThreadsBuildsOnceAndEveryThreadSeesIt() async throws {
        let app = Container(name: "app")
        let built = Counter()
        try app.register(Receipt.self) { _ in
            built.increment()
            usleep(20_000)
            return Receipt(serial: built.value, lines: ["line \(built.value)"])
        }
        let lazy = try app.resolve(Lazy<Receipt>.self)
        let results = try #require(
            await raceOnThreads(16) { _ in (try? lazy.value).map { "\($0.serial) \($0.lines)" } }, "threads hung"
        )
        #expect(results.compactMap { $0 ?? nil } == Array(repeating: "1 [\"line 1\"]", count: 16))
        #expect(built.value == 1)
    }

    /// The value is kept inside the storage all copies share: it lives as long as the last copy, no longer.
    @Test func theValueIsReleasedWithTheLastCopy() throws {
        final class Observed {
            weak var payments: Payments?
        }
        let app = Container(name: "app")
        try app.register(Payments.self) { _ in Payments(id: 1) }
        let observed = Observed()
        var lazy: Lazy<Payments>? = try app.resolve(Lazy<Payments>.self)
        var copy = lazy
        observed.payments = try lazy?.value
        #expect(observed.payments != nil)
        lazy = nil
        #expect(try copy?.value === observed.payments)
        copy = nil
        #expect(observed.payments == nil)

        var byHand: Lazy<Payments>? = Lazy(value: Payments(id: 2))
        observed.payments = try byHand?.value
        #expect(observed.payments?.id == 2)
        byHand = nil
        #expect(observed.payments == nil)
    }
}
