import DICore
import Testing

@Suite struct AllTests {
    protocol Plugin: Sendable {
        var id: String { get }
    }

    struct NamedPlugin: Plugin {
        let id: String
    }

    final class Host: Sendable {
        let plugins: All<any Plugin>
        init(plugins: All<any Plugin>) { self.plugins = plugins }
    }

    @Test func matchesResolveAllOrderWithNamesAndChildren() throws {
        let app = Container(name: "app")
        let child = app.child(name: "child")
        try app.register((any Plugin).self) { _ in NamedPlugin(id: "app") }
        try app.register((any Plugin).self, name: "audit") { _ in NamedPlugin(id: "app-audit") }
        try app.register((any Plugin).self, name: "metrics") { _ in NamedPlugin(id: "app-metrics") }
        try child.register((any Plugin).self, name: "audit") { _ in NamedPlugin(id: "child-audit") }
        try child.register((any Plugin).self, name: "extra") { _ in NamedPlugin(id: "child-extra") }
        try app.autoregister(Host.self, initializer: Host.init)
        let host = try child.resolve(Host.self)
        let expected = try child.resolveAll((any Plugin).self).map(\.id)
        #expect(host.plugins.map(\.id) == expected)
        #expect(host.plugins.map(\.id) == ["child-audit", "child-extra", "app", "app-metrics"])
        #expect(try app.resolve(All<any Plugin>.self).map(\.id) == ["app", "app-audit", "app-metrics"])
    }

    @Test func isEmptyWhenNothingIsRegistered() throws {
        let app = Container(name: "app")
        #expect(try app.resolve(All<any Plugin>.self).isEmpty)
    }

    @Test func canBeMadeByHand() {
        let plugins = All<any Plugin>([NamedPlugin(id: "fake")])
        #expect(Host(plugins: plugins).plugins.count == 1)
    }
}
