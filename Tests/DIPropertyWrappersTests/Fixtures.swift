import DICore
import DITestSupport
import Foundation
import Synchronization

protocol Logger: Sendable {
    var label: String { get }
}

final class ConsoleLogger: Logger {
    let label: String
    init(label: String = "console") { self.label = label }
}

final class Database: Sendable {
    let name: String
    init(name: String = "main") { self.name = name }
}

final class Cache: Sendable {}

protocol Coordinator: AnyObject, Sendable {
    var title: String { get }
}

final class RootCoordinator: Coordinator {
    let title: String
    init(title: String = "root") { self.title = title }
}

/// Not Sendable on purpose: transient services need not be.
final class Draft {
    var text = ""
}

protocol Clock: Sendable {
    var now: Int { get }
}

final class SystemClock: Clock {
    var now: Int { 1 }
}

final class FixedClock: Clock {
    var now: Int { 42 }
}

protocol Analytics: Sendable {}
final class Telemetry: Analytics {}

extension ServiceKeys {
    var clock: ServiceKey<any Clock> { .init(scope: .singleton) { _ in SystemClock() } }
    var analytics: ServiceKey<any Analytics> { .required() }
}

/// Counts how many times a factory ran, from any thread.
final class Counter: Sendable {
    private let count = Atomic<Int>(0)
    func increment() { count.add(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}

struct FactoryError: Error, Equatable {
    let reason: String
}

/// A tree with a logger, a named database and a clock override, the way an app sets one up.
func makeApp() throws -> (app: Container, checkout: Container) {
    let app = Container(name: "app")
    try app.register((any Logger).self, scope: .singleton) { _ in ConsoleLogger(label: "app") }
    try app.register(Database.self, name: "primary", scope: .singleton) { _ in Database(name: "primary") }
    let checkout = app.child(name: "checkout")
    try checkout.register((any Logger).self, scope: .singleton) { _ in ConsoleLogger(label: "checkout") }
    return (app, checkout)
}

/// Two first reads of one lazy property at once, the first of which fails last. Registers in `app` a transient
/// `Database` whose first build waits until the second read is done and then throws; runs `firstRead` on a thread
/// of its own (its factory blocks, which a task would do to a thread of the cooperative pool), then `secondRead`
/// while the first waits in its factory. Returns what `firstRead` returned, or `threw: …`.
func raceAFirstReadThatFailsLast(
    in app: Container,
    firstRead: @escaping @Sendable () throws -> String,
    secondRead: () throws -> Void
) async throws -> String {
    let calls = Atomic<Int>(0)
    let (firstInFactory, secondDone) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
    try app.register(Database.self) { _ in
        guard calls.add(1, ordering: .relaxed).newValue > 1 else {
            firstInFactory.signal()
            secondDone.wait()
            throw FactoryError(reason: "the first read fails last")
        }
        return Database(name: "second")
    }
    let first = Lock("not read")
    let firstDone = DispatchSemaphore(value: 0)
    Thread {
        let outcome: String
        do { outcome = try firstRead() } catch { outcome = "threw: \(error)" }
        first.withLock { $0 = outcome }
        firstDone.signal()
    }.start()
    await firstInFactory.waitOffThePool()
    let second = Result { try secondRead() }
    secondDone.signal()
    await firstDone.waitOffThePool()
    try second.get()
    return first.withLock { $0 }
}
