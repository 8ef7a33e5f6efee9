import DICore
import DITestSupport
import Testing

/// Types in messages are written as Swift code writes them — `any Logger`, `Cache?`, `[any Plugin]`,
/// `Provider<Report, String>` — where the runtime prints `Logger`, `Optional<Cache>`, `Array<Plugin>` and
/// `Provider<Report, Pack{String}>`; and the code a message suggests compiles as written.
@Suite struct ServiceNameTests {
    protocol Plugin: Sendable {}
    protocol Named: AnyObject {}
    final class Cache: Sendable {}
    struct Report {}
    struct Box<Value> {}

    @Test(arguments: [
        (Cache.self as Any.Type, "Cache"),
        ((any Plugin).self, "any Plugin"),
        ((any Plugin & Named).self, "any Named & Plugin"),  // the runtime orders a composition by name
        (Any.self, "Any"),
        (AnyObject.self, "AnyObject"),
        ((any Collection<Int>).self, "any Collection<Self.Collection.Element == Int>"),
        (Cache?.self, "Cache?"),
        (Int??.self, "Int??"),
        ((any Plugin)?.self, "(any Plugin)?"),
        (((Int) -> Cache)?.self, "((Int) -> Cache)?"),
        ([any Plugin].self, "[any Plugin]"),
        ([String: any Plugin].self, "[String: any Plugin]"),
        (Set<Int>.self, "Set<Int>"),
        (Lazy<any Plugin>.self, "Lazy<any Plugin>"),
        (Provider<Report>.self, "Provider<Report>"),
        (Provider<Report, String>.self, "Provider<Report, String>"),
        (Provider<any Plugin, Int, [Cache]>.self, "Provider<any Plugin, Int, [Cache]>"),
        (AsyncProvider<Cache?>.self, "AsyncProvider<Cache?>"),
        (All<any Plugin>.self, "All<any Plugin>"),
        (Box<Int>.self, "Box<Int>"),
    ])
    func typesAreWrittenAsSwiftWritesThem(type: Any.Type, written: String) {
        #expect(ServiceName.readable(type) == written)
    }

    @Test func aMetatypeIsWrittenAsAnExpressionThatCompiles() {
        #expect(ServiceName.metatype(Cache.self) == "Cache.self")
        #expect(ServiceName.metatype((any Plugin).self) == "(any Plugin).self")
        #expect(ServiceName.metatype(((Int) -> Cache).self) == "((Int) -> Cache).self")
        #expect(ServiceName.metatype((any Plugin)?.self) == "(any Plugin)?.self")
        #expect(ServiceName.key((any Plugin).self, name: "audit") == "(any Plugin).self, name: \"audit\"")
        // The expressions above, written out: they compile and name the same types.
        #expect((any Plugin).self == (any Plugin).self as Any.Type)
        #expect((any Plugin)?.self == Optional<any Plugin>.self)
    }

    @Test func aMissingExistentialIsNamedWithAnyAndItsFixCompiles() throws {
        let app = Container(name: "app")
        let error = try #require(throws: ResolutionError.self) { try app.resolve((any Plugin).self, name: "audit") }
        #expect(error.description.contains("Cannot resolve any Plugin \"audit\""), "\(error)")
        #expect(error.description.contains("try container.register((any Plugin).self, name: \"audit\")"), "\(error)")
    }

    @Test func anAsyncRegistrationAskedSynchronouslyNamesTheCallWithItsName() throws {
        let app = Container(name: "app")
        try app.registerAsync(Cache.self, name: "warm") { _ in Cache() }
        let error = try #require(throws: ResolutionError.self) { try app.resolve(Cache.self, name: "warm") }
        #expect(error.code == .asyncResolutionRequired)
        #expect(error.description.contains("try await resolveAsync(Cache.self, name: \"warm\")"), "\(error)")
    }
}
