import DICore
import DIScopes
import Testing

/// The DIScopes half of the bad-input matrix: a value type with `.weak` through every registration entry
/// point, a value instance behind a `.weak` existential, a `.matching` lifetime without its tag, and resolving
/// a closed scope. Each error has the right code, names the problem and the way out, and the container still
/// resolves everything else afterwards.
@Suite struct ScopeBadInputMatrixTests {
    struct Settings: Sendable { var dark = false }
    final class Healthy: Sendable {}
    final class Session: Sendable {}

    enum WeakEntry: String, CaseIterable, Sendable {
        case register, registerAsync, autoregister
    }

    @Test(arguments: WeakEntry.allCases)
    func valueTypeWithWeakIsRefusedAtRegistration(_ entry: WeakEntry) throws {
        let app = Container(name: "app")
        try app.register(Healthy.self, scope: .singleton) { _ in Healthy() }
        let error = try #require(throws: RegistrationError.self) {
            switch entry {
            case .register: try app.register(Settings.self, scope: .weak) { _ in Settings() }
            case .registerAsync: try app.registerAsync(Settings.self, scope: .weak) { _ in Settings() }
            case .autoregister: try app.autoregister(Settings.self, scope: .weak, initializer: { Settings() })
            }
        }
        #expect(error.code == .invalidScope)
        #expect(error.description.contains("Settings"))
        #expect(error.description.contains(".weak"))
        #expect(error.description.contains(".cached"), "the way out is missing: \(error)")
        #expect(!app.isRegistered(Settings.self))
        _ = try app.resolve(Healthy.self)
        try app.register(Settings.self, scope: .cached) { _ in Settings() }
        #expect(try app.resolve(Settings.self).dark == false)
    }

    @Test func valueInstanceBehindAWeakExistentialFailsAtResolve() throws {
        let app = Container(name: "app")
        try app.register(Healthy.self, scope: .singleton) { _ in Healthy() }
        try app.register((any Theme).self, scope: .weak) { _ in PlainTheme() }
        let error = try #require(throws: ResolutionError.self) { try app.resolve((any Theme).self) }
        #expect(error.code == .scopeUnavailable || error.code == .typeMismatch, "\(error)")
        #expect(error.description.contains("PlainTheme"))
        _ = try app.resolve(Healthy.self)
    }

    @Test func matchingWithoutItsTagNamesTheTagAndTheWayOut() throws {
        let app = Container(name: "app")
        try app.register(Healthy.self, scope: .singleton) { _ in Healthy() }
        try app.register(Session.self, scope: .matching("session")) { _ in Session() }
        let error = try #require(throws: ResolutionError.self) { try app.child(name: "screen").resolve(Session.self) }
        #expect(error.code == .scopeUnavailable)
        #expect(error.description.contains("\"session\""))
        #expect(error.description.contains("tags: [\"session\"]"), "the way out is missing: \(error)")
        _ = try app.resolve(Healthy.self)
        let session = app.child(name: "session", tags: ["session"])
        #expect(try session.resolve(Session.self) === session.child(name: "screen").resolve(Session.self))
    }

    @Test(arguments: ["scoped", "cached", "matching"])
    func closedContainerRefusesEveryLifetime(_ lifetime: String) throws {
        let app = Container(name: "app", tags: ["session"])
        let feature = app.child(name: "feature", tags: ["session"])
        let scope: Scope = switch lifetime {
        case "scoped": .scoped
        case "cached": .cached
        default: .matching("session")
        }
        try app.register(Healthy.self, scope: scope) { _ in Healthy() }
        _ = try feature.resolve(Healthy.self)
        feature.close()
        let error = try #require(throws: ResolutionError.self) { try feature.resolve(Healthy.self) }
        #expect(error.code == .containerClosed)
        #expect(error.description.contains("close()"))
        _ = try app.resolve(Healthy.self)
    }
}
