import DICore
import Testing

protocol Plugin: Sendable {
    var id: String { get }
}

struct NamedPlugin: Plugin {
    let id: String
}

@Suite struct ResolveAllTests {
    @Test func returnsEveryNameOwnContainerFirstShadowedKeysOnce() throws {
        let app = Container(name: "app")
        try app.register((any Plugin).self) { _ in NamedPlugin(id: "app-default") }
        try app.register((any Plugin).self, name: "analytics") { _ in NamedPlugin(id: "app-analytics") }
        try app.register((any Plugin).self, name: "crash") { _ in NamedPlugin(id: "app-crash") }
        let checkout = app.child(name: "checkout")
        try checkout.register((any Plugin).self, name: "crash") { _ in NamedPlugin(id: "checkout-crash") }
        try checkout.register((any Plugin).self, name: "pay") { _ in NamedPlugin(id: "checkout-pay") }

        let ids = try checkout.resolveAll((any Plugin).self).map(\.id)
        #expect(ids == ["checkout-crash", "checkout-pay", "app-default", "app-analytics"])
        #expect(try app.resolveAll((any Plugin).self).map(\.id) == ["app-default", "app-analytics", "app-crash"])
    }

    @Test func emptyWhenNothingIsRegistered() async throws {
        #expect(try Container(name: "app").resolveAll((any Plugin).self).isEmpty)
        #expect(try await Container(name: "app").resolveAllAsync((any Plugin).self).isEmpty)
    }

    /// `resolveAll` cannot run an `async` factory; it says which call can, and `resolveAllAsync` returns what
    /// `resolveAll` would, in the same order, with the `async` registrations built.
    @Test(.timeLimit(.minutes(1))) func anAsyncRegistrationNeedsResolveAllAsync() async throws {
        let app = Container(name: "app")
        try app.register((any Plugin).self) { _ in NamedPlugin(id: "app-default") }
        let line = #line + 1
        try app.registerAsync((any Plugin).self, name: "remote", scope: .singleton) { _ in
            await Task.yield()
            return NamedPlugin(id: "app-remote")
        }
        let checkout = app.child(name: "checkout")
        try checkout.register((any Plugin).self, name: "pay") { _ in NamedPlugin(id: "checkout-pay") }
        try checkout.registerAsync((any Plugin).self, name: "remote") { _ in NamedPlugin(id: "checkout-remote") }

        let error = try #require(throws: ResolutionError.self) { try app.resolveAll((any Plugin).self) }
        #expect(error.code == .asyncResolutionRequired)
        #expect(error.message.hasSuffix(
            "It was registered with registerAsync at DICoreTests/ResolveAllTests.swift:\(line), and resolveAll builds "
                + "every registration synchronously: call `try await resolveAllAsync((any Plugin).self)` from an async "
                + "context (in a factory, one registered with registerAsync)."
        ), "\(error)")

        #expect(try await app.resolveAllAsync((any Plugin).self).map(\.id) == ["app-default", "app-remote"])
        #expect(try await checkout.resolveAllAsync((any Plugin).self).map(\.id)
            == ["checkout-pay", "checkout-remote", "app-default"])
        // From an async factory, through its resolver: a transient's is the asking container's.
        try app.registerAsync([String].self) { r in try await r.resolveAllAsync((any Plugin).self).map(\.id) }
        #expect(try await checkout.resolveAsync([String].self) == ["checkout-pay", "checkout-remote", "app-default"])
        checkout.close()
        let closed = try await #require(throws: ResolutionError.self) {
            try await checkout.resolveAllAsync((any Plugin).self)
        }
        #expect(closed.code == .containerClosed)
    }

    /// Through an alias, the refusal names the `registerAsync` that makes it async, not the `.implements`.
    @Test func anAliasOfAnAsyncRegistrationNamesItsRegisterAsync() throws {
        final class Remote: Plugin { let id = "remote" }
        let app = Container(name: "app")
        let line = #line + 1
        try app.registerAsync(Remote.self) { _ in Remote() }
            .implements((any Plugin).self)
        let registered = "registerAsync at DICoreTests/ResolveAllTests.swift:\(line)"

        let all = try #require(throws: ResolutionError.self) { try app.resolveAll((any Plugin).self) }
        #expect(all.message.contains("It was registered with \(registered), and resolveAll"), "\(all)")
        let lazy = try #require(throws: ResolutionError.self) { try app.resolve(Lazy<any Plugin>.self) }
        #expect(lazy.message.contains("It is registered with \(registered), so a Lazy"), "\(lazy)")
    }

    /// An `All<T>` is built when its owner is, synchronously: with an `async` registration among them the way
    /// out is in the owner's registration, not an `await` of the caller's.
    @Test func anAllWithAnAsyncRegistrationPointsAtItsOwner() async throws {
        final class Host: Sendable { init(plugins: All<any Plugin>) {} }
        let app = Container(name: "app")
        try app.register((any Plugin).self) { _ in NamedPlugin(id: "local") }
        try app.registerAsync((any Plugin).self, name: "remote") { _ in NamedPlugin(id: "remote") }
        let line = #line + 1
        try app.autoregister(Host.self, initializer: Host.init)

        let error = try await #require(throws: ResolutionError.self) { try await app.resolveAsync(Host.self) }
        #expect(error.code == .asyncResolutionRequired)
        #expect(error.message.contains(
            "All<any Plugin> builds every registration synchronously when it is injected: register Host "
                + "(DICoreTests/ResolveAllTests.swift:\(line)) with registerAsync and resolve them there with "
                + "`try await r.resolveAllAsync((any Plugin).self)`, or give any Plugin \"remote\" a synchronous "
                + "factory."
        ), "\(error)")
        #expect(error.path.map(\.description) == ["Host", "any Plugin \"remote\""])
    }
}
