// The types the README's Swift blocks use without declaring them, so that `.ci/snippets` can compile every
// block as written. Each block becomes a function (its statements) plus file-scope declarations (its types).
import DICore

let app = Container(name: "app")
let checkout = app.child(name: "checkout")

protocol Logger: Sendable { func log(_ message: String) }
struct ConsoleLogger: Logger { func log(_ message: String) { print(message) } }
struct PrefixedLogger: Logger {
    let prefix: String
    let wrapping: any Logger
    func log(_ message: String) { wrapping.log("\(prefix): \(message)") }
}

final class Database: Sendable {
    let logger: any Logger
    init(logger: any Logger) { self.logger = logger }
}

protocol PaymentService: Sendable { func pay(cents: Int) -> Bool }
struct CardPayments: PaymentService {
    let database: Database
    func pay(cents: Int) -> Bool { true }
}
struct FakePayments: PaymentService { func pay(cents: Int) -> Bool { true } }

final class Checkout: Sendable {
    let payments: any PaymentService
    init(payments: any PaymentService) { self.payments = payments }
    func pay(cents: Int) -> Bool { payments.pay(cents: cents) }
}

protocol Analytics: Sendable {}
struct Telemetry: Analytics {}

protocol Clock: Sendable { var now: Int { get } }
struct SystemClock: Clock { var now: Int { 0 } }
struct FixedClock: Clock { var now: Int { 1_767_225_600 } }

final class Cart: Sendable {}
final class UnitOfWork: Sendable {}
final class ImageCache: Sendable {}
final class FeatureFlags: Sendable {}
final class UserSession: Sendable {}

protocol PaymentGateway: Sendable {}
struct CardGateway: PaymentGateway {
    static func connect(logger: any Logger) async throws -> CardGateway { CardGateway() }
}

struct Report: Sendable { let quarter: String }
struct Dashboard: Sendable {
    init(database: Lazy<Database>, report: Provider<Report, String>) {}
}
