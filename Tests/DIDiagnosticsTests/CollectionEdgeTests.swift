import DICore
import DIDiagnostics
import DIScopes
import Testing

/// An `All<T>` collects every registration of `T` under every name, as `resolveAll` does: the graph draws an edge
/// to each, so that `validate()` finds what building the collection meets (a lifetime with no place, a captive, a
/// cycle) — it used to look only for `T`'s unnamed registration, which the plugins an `All` is for seldom have, and
/// saw nothing. A loop through a collection is broken elsewhere: no `Lazy` or `Provider` takes the collection's place.
@Suite struct CollectionEdgeTests {
    final class AuditPlugin: Plugin {}
    final class RequestPlugin: Plugin {}
    final class Host: Sendable { init(plugins: All<any Plugin>) {} }
    /// Collects the plugins and is one of them.
    final class HubPlugin: Plugin { init(plugins: All<any Plugin>) {} }
    /// A plugin that needs the host.
    final class HostedPlugin: Plugin { init(host: Host) {} }
    /// A plugin that needs the hub by name.
    final class HubbedPlugin: Plugin { init(hub: Hub) {} }
    final class Hub: Sendable { init(plugins: All<any Plugin>) {} }

    @Test func aCollectionIsAnEdgeToEveryNameItCollects() throws {
        let app = Container(name: "app")
        try app.register((any Plugin).self, name: "audit", fileID: "App/Plugins.swift", line: 1) { _ in AuditPlugin() }
        try app.register((any Plugin).self, name: "metrics", fileID: "App/Plugins.swift", line: 2) { _ in
            AuditPlugin()
        }
        // Taking runtime arguments, which `resolveAll` cannot pass: not collected.
        try app.register((any Plugin).self, name: "tenant", fileID: "App/Plugins.swift", line: 3) {
            (_: any Resolver, _: String) in AuditPlugin()
        }
        try app.autoregister(Host.self, fileID: "App/Host.swift", line: 1, initializer: Host.init)
        let text = app.graph().text()
        #expect(text.contains("""
            └── Host                  transient  App/Host.swift:1
                ├── → any Plugin "audit" (app) [collection]
                └── → any Plugin "metrics" (app) [collection]
            """), "\(text)")
        #expect(app.explain(Host.self).dependencies == [
            "any Plugin \"audit\" (app, declared, collection)", "any Plugin \"metrics\" (app, declared, collection)",
        ])
        #expect(try app.resolveAll((any Plugin).self).count == 2)
    }

    /// A singleton collecting a `.matching("request")` plugin fails when it is built, whichever container asks:
    /// `validate()` says so before it runs, as DI-MATCHING, with the advice of the resolve error.
    @Test func aSingletonCollectingARequestPluginIsReportedBeforeItFails() throws {
        let app = Container(name: "app")
        try app.register((any Plugin).self, name: "audit") { _ in AuditPlugin() }
        try app.register((any Plugin).self, name: "request", scope: .matching("request")) { _ in RequestPlugin() }
        try app.autoregister(Host.self, scope: .singleton, initializer: Host.init)
        let matching = app.validate().findings.filter { $0.id == .matching }
        #expect(matching.map(\.message) == [
            "Host needs any Plugin \"request\", whose lifetime is matching(\"request\"), but no container on the path "
                + "from app is tagged \"request\".",
        ])
        let request = app.child(name: "request", tags: ["request"])
        let error = try #require(throws: ResolutionError.self) { try request.resolve(Host.self) }
        #expect(error.code == .scopeUnavailable)
        let finding = try #require(matching.first)
        #expect(error.message.hasSuffix(finding.help), "\(error.message)")
    }

    /// Keys the collecting container does not see are not collected: a plugin registered only in a child is in
    /// the collection of a host built there, and not in that of a singleton host of the app.
    @Test func onlyTheKeysTheBuildingContainerSeesAreCollected() throws {
        let app = Container(name: "app")
        try app.autoregister(Host.self, scope: .singleton, initializer: Host.init)
        let feature = app.child(name: "feature")
        try feature.register((any Plugin).self, name: "request", scope: .matching("request")) { _ in RequestPlugin() }
        #expect(app.validate().findings.filter { $0.severity == .error }.isEmpty)
        #expect(try feature.resolve(Host.self) === (try app.resolve(Host.self)))
        try feature.autoregister(Hub.self, initializer: Hub.init)
        #expect(feature.validate().findings.filter { $0.id == .matching }.map(\.service) == ["any Plugin \"request\""])
    }

    /// A service registered as the type it collects is in its own collection: a cycle, which `validate()` finds
    /// and which the resolve error and the finding explain the same way — not as a factory resolving its own key.
    @Test(arguments: [false, true])
    func aServiceRegisteredAsTheTypeItCollectsIsACycleSaidSo(instantiating: Bool) throws {
        let app = Container(name: "app")
        try app.register((any Plugin).self, name: "audit") { _ in AuditPlugin() }
        try app.autoregister((any Plugin).self, name: "hub", initializer: HubPlugin.init)
        let advice = Self.hubAdvice
        let error = try #require(throws: ResolutionError.self) { try app.resolve((any Plugin).self, name: "hub") }
        #expect(error.code == .circularDependency)
        #expect(error.message == "Cannot resolve any Plugin \"hub\": it depends on itself: any Plugin \"hub\" → any "
            + "Plugin \"hub\". \(advice)")
        let cycles = app.validate(instantiating: instantiating).findings.filter { $0.id == .cycle }
        #expect(cycles.map(\.help) == [advice])
    }

    /// What the errors and findings of a hub in its own collection say.
    static let hubAdvice = "any Plugin \"hub\" takes every registration of any Plugin (an All<any Plugin>, or "
        + "resolveAll in its factory), any Plugin \"hub\" among them, so building it needs itself. Register it under "
        + "a type of its own (its concrete type, say) rather than as any Plugin, so that the collection does not hold "
        + "it; if it must be resolved as any Plugin, register the services it collects under a type of their own."

    /// The same, for a factory that calls `resolveAll` of the type it is registered as: the resolve error and the
    /// finding of `validate(instantiating: true)`, which sees the loop only by building it.
    @Test func aFactoryResolvingAllOfItsOwnTypeIsACycleSaidSo() throws {
        let app = Container(name: "app")
        try app.register((any Plugin).self, name: "audit") { _ in AuditPlugin() }
        try app.register((any Plugin).self, name: "hub") { resolver in
            _ = try resolver.resolveAll((any Plugin).self)
            return AuditPlugin()
        }
        let error = try #require(throws: ResolutionError.self) { try app.resolve((any Plugin).self, name: "hub") }
        #expect(error.message.hasSuffix(Self.hubAdvice), "\(error.message)")
        let cycles = app.validate(instantiating: true).findings.filter { $0.id == .cycle }
        #expect(cycles.map(\.message) == [
            "any Plugin \"hub\" depends on itself: any Plugin \"hub\" → any Plugin \"hub\".",
        ])
        #expect(cycles.map(\.help) == [Self.hubAdvice])
    }

    /// A loop through a collection and a plain edge is broken at the plain edge, whichever service is asked first:
    /// no `Lazy` or `Provider` can take the place of one service of an `All`.
    @Test func aLoopThroughACollectionIsBrokenAtTheOtherEdge() throws {
        for asked in ["Hub", "hubbed"] {
            let app = Container(name: "app")
            try app.autoregister(Hub.self, scope: .singleton, initializer: Hub.init)
            try app.autoregister((any Plugin).self, name: "hubbed", initializer: HubbedPlugin.init)
            let error = try #require(throws: ResolutionError.self) {
                if asked == "Hub" { _ = try app.resolve(Hub.self) } else {
                    _ = try app.resolve((any Plugin).self, name: "hubbed")
                }
            }
            #expect(error.message.contains("Break the cycle: let any Plugin \"hubbed\" take Lazy<Hub> (resolved on "
                + "first read) or Provider<Hub> (resolved on each call) instead of Hub"), "\(asked): \(error.message)")
            let help = "Break the cycle where any Plugin \"hubbed\" needs Hub: inject it as Lazy<Hub> or Provider<Hub> "
                + "(a loop through them is no construction cycle), or move what both need into a service of its own."
            #expect(app.validate().findings.filter { $0.id == .cycle }.map(\.help) == [help], "\(asked)")
            #expect(app.validate(instantiating: true).findings.filter { $0.id == .cycle }.map(\.help) == [help])
        }
    }

    /// A loop made of collections only: each collects the other, and the way out is another type.
    @Test func aLoopOfCollectionsOnlySaysSo() throws {
        protocol Left: Sendable {}
        protocol Right: Sendable {}
        final class LeftHub: Left { init(rights: All<any Right>) {} }
        final class RightHub: Right { init(lefts: All<any Left>) {} }
        let app = Container(name: "app")
        try app.autoregister((any Left).self, name: "hub", initializer: LeftHub.init)
        try app.autoregister((any Right).self, name: "hub", initializer: RightHub.init)
        let error = try #require(throws: ResolutionError.self) { try app.resolve((any Left).self, name: "hub") }
        let advice = "The loop runs through collections only (any Left \"hub\" collects any Right \"hub\", any Right "
            + "\"hub\" collects any Left \"hub\", each taking every registration of a type, with All<…> or "
            + "resolveAll): register one of them under another type than the one its collector collects."
        #expect(error.message.hasSuffix(advice), "\(error.message)")
        #expect(app.validate().findings.filter { $0.id == .cycle }.map(\.help) == [advice])
    }

    /// A relationship to another relationship needs no registration of its own, at run time and in `validate()`,
    /// which used to report `All<any Plugin>` and `Lazy<Cache>` missing (an error that stops a start-up that
    /// validates): it is an edge of the outer kind to the inner one's target — every plugin for `Lazy<All<…>>`.
    @Test func aRelationshipToARelationshipIsAnEdgeToTheInnerTarget() throws {
        final class Cache: Sendable {}
        final class Later: Sendable { init(plugins: Lazy<All<any Plugin>>, caches: Provider<Lazy<Cache>>) {} }
        let app = Container(name: "app")
        try app.register((any Plugin).self, name: "audit", fileID: "App/Plugins.swift", line: 1) { _ in AuditPlugin() }
        try app.register(Cache.self, scope: .singleton, fileID: "App/Cache.swift", line: 1) { _ in Cache() }
        try app.autoregister(Later.self, fileID: "App/Later.swift", line: 1, initializer: Later.init)
        _ = try app.resolve(Later.self)
        #expect(app.validate().findings.filter { $0.severity == .error }.isEmpty)
        #expect(app.graph().text().contains("""
            └── Later               transient  App/Later.swift:1
                ├── → any Plugin "audit" (app) [deferred]
                └── → Cache (app) [per-call]
            """), "\(app.graph().text())")
        // The inner target missing is missing: the relationship fails when it is injected.
        final class Unregistered: Sendable {}
        final class Broken: Sendable { init(later: Provider<Lazy<Unregistered>>) {} }
        try app.autoregister(Broken.self, initializer: Broken.init)
        #expect(throws: ResolutionError.self) { try app.resolve(Broken.self) }
        let missing = app.validate().findings.filter { $0.id == .missing }
        #expect(missing.map(\.service) == ["Unregistered"])
        // A request plugin collected later by a singleton fails when the collection is read: reported before.
        try app.register((any Plugin).self, name: "request", scope: .matching("request")) { _ in RequestPlugin() }
        final class Keeper: Sendable { init(plugins: Lazy<All<any Plugin>>) {} }
        try app.autoregister(Keeper.self, scope: .singleton, initializer: Keeper.init)
        let keeper = try app.child(name: "request", tags: ["request"]).resolve(Lazy<All<any Plugin>>.self)
        #expect(throws: ResolutionError.self) { _ = try keeper.value }
        let matching = app.validate().findings.filter { $0.id == .matching }
        #expect(matching.contains { $0.message.hasPrefix("Keeper needs any Plugin \"request\"") }, "\(matching)")
    }
}
