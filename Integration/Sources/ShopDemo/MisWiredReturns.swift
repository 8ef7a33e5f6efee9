import DIToolkit
import ShopApp
import ShopCore

// A returns feature wired with three deliberate mistakes, to show what validation and a failed resolve say.
//
//   ReturnsScreen → ReturnPolicy → RefundLedger (singleton) → AuditTrail
//       AuditTrail is registered only in the per-request child, which the singleton cannot see.
//   RefundLedger (singleton) → ExchangeRates (transient): a captive dependency.
//   ReturnLabel → Courier → ReturnLabel: a cycle.

struct AuditTrail: Sendable {}
struct ExchangeRates: Sendable {}
struct RefundLedger: Sendable {
    let audit: AuditTrail
    let rates: ExchangeRates
}
struct ReturnPolicy: Sendable {
    let ledger: RefundLedger
}
struct ReturnsScreen: Sendable {
    let policy: ReturnPolicy
}
final class ReturnLabel: Sendable {
    let courier: Courier
    init(courier: Courier) { self.courier = courier }
}
final class Courier: Sendable {
    let label: ReturnLabel
    init(label: ReturnLabel) { self.label = label }
}

/// The mis-wired feature: applied to `returns`, with a `request` child that registers the audit trail.
struct MisWiredReturnsAssembly: Assembly {
    func assemble(into container: Container) throws {
        try container.autoregister(ReturnsScreen.self, initializer: ReturnsScreen.init)
        try container.autoregister(ReturnPolicy.self, initializer: ReturnPolicy.init)
        try container.autoregister(RefundLedger.self, scope: .singleton, initializer: RefundLedger.init)
        try container.autoregister(ExchangeRates.self, initializer: ExchangeRates.init)
        try container.autoregister(ReturnLabel.self, initializer: ReturnLabel.init)
        try container.autoregister(Courier.self, initializer: Courier.init)
    }
}

/// Builds a fresh shop with the mis-wired returns feature, prints its validation report, then the error of
/// resolving the returns screen in a request.
func demonstrateMisWiring() throws {
    Console.section("Demonstration: a deliberately mis-wired feature")
    print("""
      A fresh copy of the app gets a returns feature with three mistakes: its RefundLedger singleton needs an
      AuditTrail that only the per-request child registers, keeps a transient ExchangeRates, and ReturnLabel
      and Courier need each other.

        let returns = shop.app.child(name: "returns")
        try returns.apply(MisWiredReturnsAssembly())
        let request = returns.child(name: "request", tags: ["request"])
        try request.autoregister(AuditTrail.self, initializer: AuditTrail.init)

    """)
    let shop = try ShopApp.makeContainer(logger: RecordingLogger())
    let returns = shop.app.child(name: "returns")
    try returns.apply(MisWiredReturnsAssembly())
    let request = returns.child(name: "request", tags: ["request"])
    try request.autoregister(AuditTrail.self, initializer: AuditTrail.init)

    print("  returns.validate() finds all three before anything runs:\n")
    Console.block("\(returns.validate())", indent: 4)

    print("\n  At run time the same mistake is one error, with the whole path and why the singleton missed it:\n")
    print("    try request.resolve(ReturnsScreen.self)\n")
    do {
        _ = try request.resolve(ReturnsScreen.self)
        print("    (unexpectedly resolved)")
    } catch {
        Console.block("\(error)", indent: 4)
    }
}
