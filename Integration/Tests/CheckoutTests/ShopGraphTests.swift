import Cart
import Checkout
import DICore
import DIDiagnostics
import DITesting
import ShopApp
import ShopCore
import Testing

/// The whole app's wiring, checked the way a team keeps it honest: validation and a reviewed snapshot of
/// the graph.
@Suite struct ShopGraphTests {
    @Test func theAppGraphIsValid() async throws {
        let shop = try ShopApp.makeContainer(logger: RecordingLogger())
        let session = try shop.makeSession(user: "alice")  // so the per-session cart is checked from a session
        defer { withExtendedLifetime(session) {} }
        let report = expectValid(shop.app)
        #expect(report.registrationCount > 0)
        // The async services (gateway, checkout) are built by validateAsync in throw-away copies.
        let built = await shop.app.validateAsync()
        #expect(built.errors.isEmpty && built.warnings.isEmpty, "\(built)")
    }

    @Test func theAppGraphIsReviewed() throws {
        let shop = try ShopApp.makeContainer(logger: RecordingLogger())
        let session = try shop.makeSession(user: "alice")
        defer { withExtendedLifetime(session) {} }
        expectGraphSnapshot(of: shop.app, named: "shop")
    }

    @Test func withoutThePaymentConfigurationCheckoutSaysWhatToRegister() async throws {
        let app = Container(name: "app")
        try app.apply(ShopCoreAssembly(logger: RecordingLogger(), http: InMemoryHTTPClient.shopBackend()))
        let checkout = app.child(name: "checkout")
        try checkout.apply(CheckoutAssembly())
        let error = await #expect(throws: ResolutionError.self) {
            try await checkout.resolveAsync((any CheckoutService).self)
        }
        #expect(error?.code == .requiredKeyMissing)
        #expect("\(error.map { "\($0)" } ?? "")".contains("paymentConfiguration"))
    }
}
