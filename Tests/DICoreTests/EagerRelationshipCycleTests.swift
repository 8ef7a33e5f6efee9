import DICore
import Testing

/// A loop through a `Lazy`, `Provider` or `AsyncProvider` is no cycle until the relationship is used while its
/// target is being built. The error then says to use it later: telling the service to take a relationship it
/// already takes would send its reader round in a circle.
@Suite struct EagerRelationshipCycleTests {
    final class Page: Sendable {
        init(_ layout: Layout) {}
    }

    final class Layout: Sendable {
        init(_ page: Page) {}
    }

    enum Kind: String, CaseIterable, Sendable {
        case lazy, provider
    }

    /// `Page` needs `Layout`, whose factory reads `Page` through a relationship of `kind` while `Page` is built.
    static func app(_ kind: Kind, scope: Scope = .transient) throws -> Container {
        let app = Container(name: "app")
        try app.register(Page.self, scope: scope) { r in Page(try r.resolve(Layout.self)) }
        switch kind {
        case .lazy:
            try app.register(Layout.self, scope: scope) { r in Layout(try r.resolve(Lazy<Page>.self).value) }
        case .provider:
            try app.register(Layout.self, scope: scope) { r in Layout(try r.resolve(Provider<Page>.self)()) }
        }
        return app
    }

    @Test(arguments: Kind.allCases, [Scope.transient, .singleton])
    func saysToUseTheRelationshipLater(kind: Kind, scope: Scope) throws {
        let app = try Self.app(kind, scope: scope)
        let error = try #require(throws: ResolutionError.self) { try app.resolve(Page.self) }
        let relationship = kind == .lazy ? "Lazy<Page>" : "Provider<Page>"
        #expect(error.code == .circularDependency)
        #expect(error.path.map(\.description) == ["Page", "Layout", relationship, "Page"])
        #expect(error.message.contains("Layout uses its \(relationship) while Page is still being built"))
        #expect(error.message.contains("Use it later, once Layout is built"))
        #expect(!error.message.contains("let Layout take"), "Layout takes \(relationship) already")
    }

    @Test func saysSoInATestContainerToo() throws {
        let app = try Self.app(.provider)
        let test = Container.makeTestContainer(from: app, name: "test")
        let error = try #require(throws: ResolutionError.self) { try test.resolve(Page.self) }
        #expect(error.message.contains("Layout uses its Provider<Page> while Page is still being built"))
    }

    @Test(.timeLimit(.minutes(1)))
    func saysSoForAnAsyncProviderUsedByAnAsyncFactory() async throws {
        let app = Container(name: "app")
        try app.registerAsync(Page.self, scope: .singleton) { r in Page(try await r.resolveAsync(Layout.self)) }
        try app.registerAsync(Layout.self, scope: .singleton) { r in
            Layout(try await r.resolveAsync(AsyncProvider<Page>.self)())
        }
        let error = try await #require(throws: ResolutionError.self) { try await app.resolveAsync(Page.self) }
        #expect(error.code == .circularDependency)
        #expect(error.path.map(\.description) == ["Page", "Layout", "AsyncProvider<Page>", "Page"])
        #expect(error.message.contains("Layout uses its AsyncProvider<Page> while Page is still being built"))
    }

    /// The relationship is used early, and the loop closes on a plain edge after it: the early use is still the
    /// thing to move, not the plain edge (which would need a relationship of its own).
    @Test func aLoopClosedByAPlainEdgeNamesTheEarlyUse() throws {
        final class Header: Sendable { init(_ page: Page) {} }
        let app = Container(name: "app")
        try app.register(Page.self) { r in Page(try r.resolve(Layout.self)) }
        try app.register(Header.self) { r in Header(try r.resolve(Page.self)) }
        try app.register(Layout.self) { r in
            _ = try r.resolve(Lazy<Header>.self).value
            Issue.record("Header was built while Page was")
            throw CancellationError()
        }
        let error = try #require(throws: ResolutionError.self) { try app.resolve(Page.self) }
        #expect(error.path.map(\.description) == ["Page", "Layout", "Lazy<Header>", "Header", "Page"])
        #expect(error.message.contains("Layout uses its Lazy<Header> while Page is still being built"))
    }

    /// A loop of plain edges only, reached through a relationship used early: the relationship is outside the
    /// loop, so the advice is the plain one.
    @Test func aRelationshipBeforeTheLoopKeepsThePlainAdvice() throws {
        final class Top: Sendable { init(_ page: Page) {} }
        final class Ring: Sendable { init(_ ring: Ring?) {} }
        let app = Container(name: "app")
        try app.register(Top.self) { r in _ = try r.resolve(Provider<Ring>.self)(); throw CancellationError() }
        try app.register(Ring.self) { r in Ring(try r.resolve(Ring.self, name: "other")) }
        try app.register(Ring.self, name: "other") { r in Ring(try r.resolve(Ring.self)) }
        let error = try #require(throws: ResolutionError.self) { try app.resolve(Top.self) }
        #expect(error.path.map(\.description) == ["Top", "Provider<Ring>", "Ring", "Ring \"other\"", "Ring"])
        #expect(error.message.contains("let Ring \"other\" take Lazy<Ring>"))
    }
}
