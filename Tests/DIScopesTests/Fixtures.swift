import DICore
import DIScopes
import Foundation
import Synchronization
import Testing

/// Which container's resolver built something: each container of a test tree registers its own `Origin`.
struct Origin: Sendable, Equatable {
    let container: String
}

/// The service under test: remembers the `Origin` it was built with, a serial number, and reports its
/// disposal to a log, so a test can tell who built it, from where, and who disposed it.
final class Widget: Disposable, Sendable {
    let origin: String
    let serial: Int
    let log: Log

    init(origin: String, serial: Int, log: Log) {
        self.origin = origin
        self.serial = serial
        self.log = log
    }

    func dispose() { log.append("dispose \(serial)") }
}

/// A class-bound protocol, for `.weak` registrations of existentials.
protocol Router: AnyObject, Sendable {}
final class AppRouter: Router {}

/// Not class-bound: a `.weak` registration of it is accepted, and the built instance is checked.
protocol Theme: Sendable {}
struct PlainTheme: Theme {}
final class DarkTheme: Theme {}

struct Point: Sendable {
    var x = 0
}

/// Counts factory runs from any thread, and hands out serial numbers.
final class Counter: Sendable {
    private let count = Atomic<Int>(0)
    @discardableResult func increment() -> Int { count.add(1, ordering: .relaxed).newValue }
    var value: Int { count.load(ordering: .relaxed) }
}

/// An append-only log shared with factories and disposers.
final class Log: Sendable {
    private let storage = Lock<[String]>([])
    func append(_ entry: String) { storage.withLock { $0.append(entry) } }
    var entries: [String] { storage.withLock { $0 } }
}

/// Keeps instances alive from any thread (so `.weak` instances survive while a test needs them).
final class Keeper<Value: Sendable>: Sendable {
    private let storage = Lock<[Value]>([])
    func keep(_ value: Value) { storage.withLock { $0.append(value) } }
    var values: [Value] { storage.withLock { $0 } }
    func removeAll() { storage.withLock { $0.removeAll() } }
}

/// A tree of containers, each registering its own `Origin`, and a `Widget` registered in `app` with the
/// scope under test; factories count their runs.
struct Tree {
    let app: Container
    let feature: Container
    let screen: Container
    let log = Log()
    let builds = Counter()

    /// `app` → `feature` (tagged "feature") → `screen`.
    init(widget scope: Scope, tags: Set<String> = ["feature"]) throws {
        app = Container(name: "app")
        feature = app.child(name: "feature", tags: tags)
        screen = feature.child(name: "screen")
        for container in [app, feature, screen] {
            let name = container.name
            try container.register(Origin.self) { _ in Origin(container: name) }
        }
        let (log, builds) = (log, builds)
        try app.register(Widget.self, scope: scope) { r in
            Widget(origin: try r.resolve(Origin.self).container, serial: builds.increment(), log: log)
        }
    }
}

/// The two orders in which a parent and its child first ask for a service.
enum Order: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case parentFirst, childFirst

    var testDescription: String { rawValue }

    /// Resolves from `parent` and `child` in this order; returns (parent's, child's).
    func resolve<T>(parent: () throws -> T, child: () throws -> T) rethrows -> (parent: T, child: T) {
        switch self {
        case .parentFirst:
            let p = try parent()
            return (p, try child())
        case .childFirst:
            let c = try child()
            return (try parent(), c)
        }
    }
}
