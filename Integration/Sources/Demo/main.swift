// A container tree for a small shop app: the app registers shared services, each feature gets a child
// container that sees them and overrides what it needs. Run with `swift run --package-path Integration Demo`.
import DIToolkit

protocol Logger: Sendable {
    func log(_ message: String)
}

struct ConsoleLogger: Logger {
    let prefix: String
    func log(_ message: String) { print("  [\(prefix)] \(message)") }
}

final class Database: Sendable {
    let name: String
    let logger: any Logger
    init(name: String, logger: any Logger) {
        self.name = name
        self.logger = logger
        logger.log("opened database \(name)")
    }
}

protocol PaymentService: Sendable {
    func pay(cents: Int) -> String
}

struct CardPayments: PaymentService {
    let database: Database
    func pay(cents: Int) -> String { "charged \(cents) cents, recorded in \(database.name)" }
}

struct GiftCardPayments: PaymentService {
    func pay(cents: Int) -> String { "redeemed \(cents) cents from a gift card" }
}

final class CheckoutViewModel: Sendable {
    let payments: any PaymentService
    let logger: any Logger
    init(payments: any PaymentService, logger: any Logger) {
        self.payments = payments
        self.logger = logger
    }
}

do {
    print("1. The app container registers shared services.")
    let app = Container(name: "app")
    try app.register((any Logger).self, scope: .singleton) { _ in ConsoleLogger(prefix: "app") }
    try app.register(Database.self, name: "primary", scope: .singleton) { r in
        Database(name: "shop.sqlite", logger: try r.resolve((any Logger).self))
    }
    try app.register((any PaymentService).self) { r in
        CardPayments(database: try r.resolve(Database.self, name: "primary"))
    }
    try app.autoregister(CheckoutViewModel.self, initializer: CheckoutViewModel.init)

    print("2. Two features get child containers; one overrides payments for itself only.")
    let checkout = app.child(name: "checkout")
    let giftShop = app.child(name: "gift-shop")
    try giftShop.register((any PaymentService).self) { _ in GiftCardPayments() }

    let checkoutModel = try checkout.resolve(CheckoutViewModel.self)
    let giftModel = try giftShop.resolve(CheckoutViewModel.self)
    print("   checkout:  \(checkoutModel.payments.pay(cents: 1_250))")
    print("   gift-shop: \(giftModel.payments.pay(cents: 500))")

    let fromCheckout = try checkout.resolve(Database.self, name: "primary")
    let fromGiftShop = try giftShop.resolve(Database.self, name: "primary")
    print("   the app's singleton database is shared: \(fromCheckout === fromGiftShop)")

    print("3. A mistake gets one message that explains it.")
    do {
        _ = try checkout.resolve(Database.self, name: "primray")
    } catch {
        print(error)
    }
} catch {
    print("The demo failed: \(error)")
}
