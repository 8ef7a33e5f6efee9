import DICore
import Testing

/// A kept service (a singleton) resolves its dependencies in the container that registers it, not in the child a
/// request was made to: when one of them is missing there, the error's `note:` says so and names the child — also
/// when the singleton is the service asked for, whose path then starts in the container that builds it.
@Suite(.timeLimit(.minutes(1))) struct RequestContainerNoteTests {
    protocol Store: Sendable {}
    final class Gateway: Store { init(logger: any Logger) {} }

    static func note(_ owner: String, asked: String) -> String {
        "note:      \(owner) is a singleton service of app, so its dependencies are resolved in app, not in "
            + "\(asked) where the request started; registrations in \(asked) do not apply to it."
    }

    /// `app` with a `Database` singleton whose logger only `checkout` registers.
    private func tree() throws -> (app: Container, checkout: Container) {
        let app = Container(name: "app")
        try app.autoregister(Database.self, scope: .singleton, initializer: Database.init)
        let checkout = app.child(name: "checkout")
        try checkout.register((any Logger).self) { _ in ConsoleLogger() }
        return (app, checkout)
    }

    @Test func aSingletonAskedOfAChildSaysWhereTheRequestStarted() throws {
        let (_, checkout) = try tree()
        let error = try #require(throws: ResolutionError.self) { try checkout.resolve(Database.self) }
        #expect(error.path.map(\.container) == ["app", "app"])
        #expect(error.description.contains(Self.note("Database", asked: "checkout")), "\(error)")
    }

    @Test func theAsyncTwinSaysTheSame() async throws {
        let (app, checkout) = try tree()
        try app.registerAsync(Gateway.self, scope: .singleton) { r in
            Gateway(logger: try r.resolve((any Logger).self))
        }
        let error = await #expect(throws: ResolutionError.self) { try await checkout.resolveAsync(Gateway.self) }
        #expect(error?.description.contains(Self.note("Gateway", asked: "checkout")) == true)
        // A synchronous singleton asked for with resolveAsync.
        let sync = await #expect(throws: ResolutionError.self) { try await checkout.resolveAsync(Database.self) }
        #expect(sync?.description.contains(Self.note("Database", asked: "checkout")) == true)
    }

    @Test func anAliasOfTheSingletonSaysTheSame() throws {
        let (app, checkout) = try tree()
        try app.register(Gateway.self, scope: .singleton) { r in Gateway(logger: try r.resolve((any Logger).self)) }
            .implements((any Store).self)
        let error = try #require(throws: ResolutionError.self) { try checkout.resolve((any Store).self) }
        #expect(error.description.contains(Self.note("any Store", asked: "checkout")), "\(error)")
    }

    @Test func aServiceBuiltInTheChildStartsThePathThere() throws {
        let (_, checkout) = try tree()
        try checkout.autoregister(Repository.self, initializer: Repository.init)
        let error = try #require(throws: ResolutionError.self) { try checkout.resolve(Repository.self) }
        #expect(error.path.map(\.container) == ["checkout", "app", "app"])
        #expect(error.description.contains(Self.note("Database", asked: "checkout")), "\(error)")
    }

    @Test func noNoteWhenTheRequestWasMadeWhereTheSingletonLives() throws {
        let (app, _) = try tree()
        let error = try #require(throws: ResolutionError.self) { try app.resolve(Database.self) }
        #expect(error.code == .notRegistered)
        #expect(!error.description.contains("note:"), "\(error)")
    }

    @Test func theNoteNamesTheChildOfItsOwnRequestWhenManyFailAtOnce() async throws {
        let (app, _) = try tree()
        let children = (0..<16).map { app.child(name: "request \($0)") }
        let notes = await withTaskGroup(of: (Int, String).self) { group in
            for (index, child) in children.enumerated() {
                group.addTask {
                    do {
                        _ = try child.resolve(Database.self)
                        return (index, "resolved")
                    } catch {
                        return (index, "\(error)")
                    }
                }
            }
            return await group.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
        }
        for index in children.indices {
            let text = notes[index] ?? ""
            #expect(text.contains(Self.note("Database", asked: "request \(index)")), "\(text)")
        }
    }
}
