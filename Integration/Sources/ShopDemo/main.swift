import Cart
import Catalog
import DIToolkit
import ShopApp
import ShopCore

let shop = try ShopApp.makeContainer(logger: RecordingLogger())
let session = try shop.makeSession(user: "alice")
let listing = try shop.catalog.resolve(ProductListing.self)
print(try await listing.lines())
let cart = try session.resolve((any ShoppingCart).self)
try cart.add(try await listing.catalog.product(id: "cup"), quantity: 2)
let checkout = try await shop.checkout.resolveAsync((any CheckoutService).self)
print(try await checkout.placeOrder(for: cart.user, lines: cart.lines))
print(shop.app.validate())
print(await shop.app.validateAsync())
print(shop.app.graph().text())
