import DICore
import DIScopes

protocol Logger: Sendable {}
final class ConsoleLogger: Logger {}
final class Database: Sendable {
    init(logger: any Logger) {}
}
final class Cache: Sendable {}
final class Repository: Sendable {
    init(database: Database, cache: Cache) {}
}
final class ViewModel: Sendable {
    init(repository: Repository) {}
}
final class Session: Sendable {}
final class Cart: Sendable {
    init(session: Session) {}
}
final class Ping: Sendable {
    init(pong: Pong) {}
}
final class Pong: Sendable {
    init(ping: Ping) {}
}
protocol Router: Sendable {}
protocol Storing: Sendable {}
final class NotARouter: Sendable {}
struct BrokenFactory: Error, CustomStringConvertible {
    var description: String { "the disk is full" }
}

/// The registrations every exact-text test uses, with fixed locations so the expected strings stay put.
enum Graphs {
    static func at(_ line: Int) -> (fileID: String, line: Int) { ("App/Setup.swift", line) }

    /// A healthy tree: app with a logger, a database and a repository; checkout overrides the cache.
    ///
    /// A container keeps its children weakly: keep `checkout` alive for as long as the tree is inspected.
    static func healthy() throws -> (app: Container, checkout: Container) {
        let app = Container(name: "app")
        try app.register((any Logger).self, scope: .singleton, fileID: "App/Setup.swift", line: 7) { _ in
            ConsoleLogger()
        }
        try app.autoregister(Database.self, scope: .singleton, fileID: "App/Setup.swift", line: 9,
                             initializer: Database.init)
        try app.register(Cache.self, scope: .singleton, fileID: "App/Setup.swift", line: 11) { _ in Cache() }
        try app.autoregister(Repository.self, scope: .singleton, fileID: "App/Setup.swift", line: 12,
                             initializer: Repository.init)
        let checkout = app.child(name: "checkout")
        try checkout.register(Cache.self, scope: .singleton, fileID: "App/Checkout.swift", line: 3) { _ in
            Cache()
        }
        try checkout.autoregister(ViewModel.self, fileID: "App/Checkout.swift", line: 4,
                                  initializer: ViewModel.init)
        return (app, checkout)
    }
}

/// `Front → Lazy<Back> → Back → Front`: a loop broken by the `Lazy`.
final class Front: Sendable {
    init(back: Lazy<Back>) {}
}
final class Back: Sendable {
    init(front: Front) {}
}
protocol Plugin: Sendable {}
final class Report: Sendable {
    init(quarter: String) {}
}
/// One parameter of every relationship kind.
final class Dashboard: Sendable {
    init(cache: Lazy<Cache>, sessions: Provider<Session>, makeReport: Provider<Report, String>,
         plugins: All<any Plugin>) {}
}

extension Graphs {
    /// app: `Front` and `Back` (a deferred loop); `Dashboard` with one edge of every relationship kind.
    static func relationships() throws -> Container {
        let app = Container(name: "app")
        try app.autoregister(Front.self, scope: .singleton, fileID: "App/Loop.swift", line: 1,
                             initializer: Front.init)
        try app.autoregister(Back.self, scope: .singleton, fileID: "App/Loop.swift", line: 2,
                             initializer: Back.init)
        try app.register(Cache.self, scope: .singleton, fileID: "App/Setup.swift", line: 3) { _ in Cache() }
        try app.register(Session.self, fileID: "App/Setup.swift", line: 4) { _ in Session() }
        try app.register(Report.self, fileID: "App/Setup.swift", line: 5) { (_: any Resolver, quarter: String) in
            Report(quarter: quarter)
        }
        try app.autoregister(Dashboard.self, fileID: "App/Setup.swift", line: 6, initializer: Dashboard.init)
        return app
    }
}

extension Container {
    /// Whether resolves from this container take the slow path. (`#expect` cannot take apart a property of the
    /// registry, which is noncopyable.)
    var takesSlowPath: Bool { registry.needsSlowPath }
}
