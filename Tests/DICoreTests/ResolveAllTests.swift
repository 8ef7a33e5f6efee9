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

    @Test func emptyWhenNothingIsRegistered() throws {
        #expect(try Container(name: "app").resolveAll((any Plugin).self).isEmpty)
    }
}
