import DICore
import Synchronization


/// The value a test overrides; the app registers the live one.
struct Marker: Sendable, Equatable {
    let value: Int
}

/// An app singleton that depends on `Marker`, and says which container built it.
final class Greeter: Sendable {
    let marker: Marker
    let builtBy: String

    init(marker: Marker, builtBy: String) {
        self.marker = marker
        self.builtBy = builtBy
    }
}

protocol PaymentService: Sendable {
    func pay(_ amount: Int) -> Bool
}

struct LivePayment: PaymentService {
    func pay(_ amount: Int) -> Bool { false }
}

struct FakePayment: PaymentService {
    func pay(_ amount: Int) -> Bool { true }
}

protocol Clock: Sendable {
    var now: Int { get }
}

struct SystemClock: Clock {
    var now: Int { 1_000 }
}

struct FixedClock: Clock {
    var now: Int { 42 }
}

protocol Repository: Sendable {
    func save(_ item: String)
}

final class SpyRepository: Repository {
    private let saved = Lock<[String]>([])
    func save(_ item: String) { saved.withLock { $0.append(item) } }
    var items: [String] { saved.withLock { $0 } }
}

final class OtherSpy: Repository {
    func save(_ item: String) {}
}

/// Counts how many times a factory ran, from any thread.
final class Counter: Sendable {
    private let count = Atomic<Int>(0)
    func increment() { count.add(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}

/// An append-only log shared with factories, disposers and reporters.
final class Log: Sendable {
    private let storage = Lock<[String]>([])
    func append(_ entry: String) { storage.withLock { $0.append(entry) } }
    var entries: [String] { storage.withLock { $0 } }
}

extension ServiceKeys {
    var clock: ServiceKey<any Clock> { .init(scope: .singleton) { _ in SystemClock() } }
}

/// The app graph, registered once in `Container.shared` as an app does at start-up: `Greeter` is a singleton
/// that depends on `Marker`.
enum App {
    static let greeterBuilds = Counter()

    private static let installed = Lock(false)

    static func install() throws {
        try installed.withLock { installed in
            guard !installed else { return }
            let shared = Container.shared
            try shared.register(Marker.self) { _ in Marker(value: -1) }
            try shared.register(Greeter.self, scope: .singleton) { r in
                greeterBuilds.increment()
                return Greeter(marker: try r.resolve(Marker.self), builtBy: (r as? Container)?.name ?? "?")
            }
            try shared.register((any PaymentService).self) { _ in LivePayment() }
            try shared.register((any Clock).self, scope: .singleton) { _ in SystemClock() }
            try shared.register((any Repository).self, scope: .singleton) { _ in SpyRepository() }
            installed = true
        }
    }
}

/// Small graphs for `expectValid` and `expectGraphSnapshot`, with fixed locations so printed graphs stay put.
enum Shop {
    final class Journal: Sendable {}
    final class Ledger: Sendable {
        init(journal: Journal) {}
    }
    final class Till: Sendable {
        init(ledger: Ledger) {}
    }
    final class Printer: Sendable {}
    final class Receipt: Sendable {
        init(printer: Printer) {}
    }
    final class Ping: Sendable {
        init(pong: Pong) {}
    }
    final class Pong: Sendable {
        init(ping: Ping) {}
    }
    struct OutOfPaper: Error {}

    /// A valid graph: `Till` → `Ledger` (singleton) → `Journal` (singleton, a closure factory: one note).
    static func valid(journalScope: Scope = .singleton) throws -> Container {
        let shop = Container(name: "shop")
        try shop.register(Journal.self, scope: journalScope, fileID: "Shop/Setup.swift", line: 3) { _ in
            Journal()
        }
        try shop.autoregister(Ledger.self, scope: .singleton, fileID: "Shop/Setup.swift", line: 4,
                              initializer: Ledger.init)
        try shop.autoregister(Till.self, fileID: "Shop/Setup.swift", line: 5, initializer: Till.init)
        return shop
    }

    /// The valid graph plus a missing dependency (`Receipt` needs `Printer`) and a cycle (`Ping` ⇄ `Pong`).
    static func broken() throws -> Container {
        let shop = try valid()
        try shop.autoregister(Receipt.self, fileID: "Shop/Setup.swift", line: 6, initializer: Receipt.init)
        try shop.autoregister(Ping.self, fileID: "Shop/Setup.swift", line: 7, initializer: Ping.init)
        try shop.autoregister(Pong.self, fileID: "Shop/Setup.swift", line: 8, initializer: Pong.init)
        return shop
    }
}
