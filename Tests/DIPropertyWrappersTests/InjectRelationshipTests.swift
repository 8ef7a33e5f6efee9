import DICore
import DIPropertyWrappers
import Testing

private final class Screen {
    @Inject var logger: Lazy<any Logger>
    @Inject(name: "primary") var database: Provider<Database>
    @Inject var caches: All<Cache>
    @Inject var cache: Lazy<Cache>?
}

/// `@Inject` of relationship types: they need no registration of their own.
@Suite struct InjectRelationshipTests {
    @Test func injectsRelationshipsFromTheAmbientContainer() throws {
        let (_, checkout) = try makeApp()
        let screen = withContainer(checkout) { Screen() }
        #expect(try screen.logger.value.label == "checkout")
        #expect(try screen.database().name == "primary")
        #expect(screen.caches.isEmpty)
        #expect(screen.cache == nil)
    }

    @Test func anOptionalLazyIsInjectedWhenItsTargetIsRegistered() throws {
        let (app, _) = try makeApp()
        try app.register(Cache.self, scope: .singleton) { _ in Cache() }
        let screen = withContainer(app) { Screen() }
        #expect(screen.caches.count == 1)
        #expect(try screen.cache?.value === screen.caches.first)
    }
}
