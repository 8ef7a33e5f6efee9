import DICore
import Synchronization

protocol Logger: Sendable {
    var label: String { get }
}

final class ConsoleLogger: Logger {
    let label: String
    init(label: String = "console") { self.label = label }
}

final class Database: Sendable {
    let logger: any Logger
    init(logger: any Logger) { self.logger = logger }
}

final class Repository: Sendable {
    let database: Database
    init(database: Database) { self.database = database }
}

final class ViewModel: Sendable {
    let repository: Repository
    init(repository: Repository) { self.repository = repository }
}

protocol Router: AnyObject, Sendable {}
protocol DeeplinkHandler: AnyObject, Sendable {}
final class RouterImpl: Router, DeeplinkHandler {}

/// Not Sendable on purpose: transient services need not be.
final class Formatter {
    var pattern = "yyyy"
}

/// Counts how many times a factory ran, from any thread.
final class Counter: Sendable {
    private let count = Atomic<Int>(0)
    /// Adds one; returns the new count, a serial number of what was counted.
    @discardableResult func increment() -> Int { count.add(1, ordering: .relaxed).newValue }
    var value: Int { count.load(ordering: .relaxed) }
}

struct FactoryError: Error, Equatable {
    let reason: String
}

/// An append-only log shared with factories and disposers.
final class Log: Sendable {
    private let storage = Lock<[String]>([])
    func append(_ entry: String) { storage.withLock { $0.append(entry) } }
    var entries: [String] { storage.withLock { $0 } }
}

extension Container {
    /// Whether resolves from this container take the slow path. (`#expect` cannot take apart a property of the
    /// registry, which is noncopyable.)
    var takesSlowPath: Bool { registry.needsSlowPath }
}
