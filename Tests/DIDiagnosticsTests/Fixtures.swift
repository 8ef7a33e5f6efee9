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
