import DICore
import DIScopes
import DITestSupport
import Foundation
import Testing

/// `Lazy` and `Provider` of a service whose scope is reset, or whose registration is replaced: a `Lazy` keeps
/// what its first read returned, a `Provider` follows every reset and registration; a first read that a reset
/// overtakes gives every reader the one instance its build made, with 1, 2, 3 and 16 readers.
@Suite(.timeLimit(.minutes(1))) struct RelationshipResetTests {
    final class Owner: Sendable {
        let lazy: Lazy<Widget>
        let provider: Provider<Widget>
        init(lazy: Lazy<Widget>, provider: Provider<Widget>) {
            self.lazy = lazy
            self.provider = provider
        }
    }

    /// An app with a `.cached` widget (serials counted from 1) and an `Owner` of its relationships.
    private struct Shop {
        let app = Container(name: "app")
        let log = Log()
        let builds = Counter()

        init(gate: (entered: DispatchSemaphore, proceed: DispatchSemaphore)? = nil) throws {
            let (log, builds) = (log, builds)
            try app.register(Widget.self, scope: .cached) { _ in
                let serial = builds.increment()
                if serial == 1, let gate {
                    gate.entered.signal()
                    gate.proceed.wait()
                }
                return Widget(origin: "app", serial: serial, log: log)
            }
            try app.autoregister(Owner.self, initializer: Owner.init)
        }
    }

    @Test func aProviderFollowsResetsAndALazyKeepsItsFirstRead() throws {
        let shop = try Shop()
        let owner = try shop.app.resolve(Owner.self)
        let kept = try owner.lazy.value
        #expect(try owner.provider() === kept, "the provider and the lazy share the cached instance")
        shop.app.reset(.cached)
        #expect(shop.log.entries == ["dispose 1"])
        let fresh = try owner.provider()
        #expect(fresh.serial == 2, "the provider resolves again after the reset")
        #expect(try owner.lazy.value === kept, "the lazy keeps what its first read returned")
        #expect(try owner.provider() === fresh)
        shop.app.close()
        #expect(shop.log.entries == ["dispose 1", "dispose 2"], "each instance disposed once")
    }

    @Test func aLazyFirstReadAfterARegistrationIsReplacedGetsTheNewRegistration() throws {
        let shop = try Shop()
        let owner = try shop.app.resolve(Owner.self)
        try shop.app.register(Widget.self, scope: .cached) { _ in Widget(origin: "again", serial: 9, log: shop.log) }
        #expect(try owner.lazy.value.origin == "again")
        #expect(try owner.provider().origin == "again")
    }

    @Test func aProviderFollowsARegistrationReplacedBetweenCalls() throws {
        let shop = try Shop()
        let owner = try shop.app.resolve(Owner.self)
        let before = try owner.provider()
        try shop.app.register(Widget.self, scope: .cached) { _ in Widget(origin: "again", serial: 9, log: shop.log) }
        #expect(shop.log.entries == ["dispose \(before.serial)"], "the replaced registration's instance")
        #expect(try owner.provider().origin == "again")
    }

    /// Readers of one `Lazy` whose first read's build waits while the scope is reset: every reader gets the one
    /// instance that build made (the `Lazy` resolves once); a provider asked after the reset gets a new one;
    /// each is disposed once.
    @Test(arguments: [1, 2, 3, 16])
    func readersOfALazyWhoseFirstReadAResetOvertakesShareOneInstance(readers: Int) async throws {
        let gate = (entered: DispatchSemaphore(value: 0), proceed: DispatchSemaphore(value: 0))
        let shop = try Shop(gate: gate)
        let owner = try shop.app.resolve(Owner.self)
        let read = Task {
            await raceOnThreads(readers) { reader -> ObjectIdentifier? in
                if reader > 0 { gate.entered.wait(); gate.entered.signal() }
                return (try? owner.lazy.value).map(ObjectIdentifier.init)
            }
        }
        await gate.entered.waitOffThePool()
        gate.entered.signal()
        try await Task.sleep(for: .milliseconds(10))
        shop.app.reset(.cached)
        gate.proceed.signal()
        let got = try #require(await read.value, "the readers did not return")
        let first = try owner.lazy.value
        #expect(got.allSatisfy { $0 == ObjectIdentifier(first) }, "\(got)")
        #expect(first.serial == 1 && shop.builds.value == 1, "the lazy resolved once")
        #expect(try owner.provider().serial == 2, "the reset overtook the first build: the next resolve builds")
        #expect(shop.log.entries.isEmpty)
        shop.app.close()
        #expect(shop.log.entries.sorted() == ["dispose 1", "dispose 2"])
    }
}
