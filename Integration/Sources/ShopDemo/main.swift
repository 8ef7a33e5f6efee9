// shop-demo: a shop app built from feature assemblies into a container tree, a checkout scenario that shows
// what every step resolved, the diagnostics of the tree, and a deliberately mis-wired feature.
//
//   swift run --package-path Integration shop-demo [--dot | --mermaid | --json | --trace | --help]
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Cart
import Catalog
import DIToolkit
import ShopApp
import ShopCore

let usage = """
    Usage: shop-demo [option]

      (none)     run the checkout scenario, print the container tree, its validation report, and a
                 deliberately mis-wired feature with its report and its runtime error
      --dot      print the app's dependency graph as Graphviz DOT (dot -Tsvg graph.dot -o graph.svg)
      --mermaid  print the graph as a Mermaid flowchart (renders in GitHub Markdown)
      --json     print the graph as JSON, for tools
      --trace    print a trace of the start-up resolves: each hop, built or reused, where, how long
      --help     print this help
    """

/// The app tree as the graph options print it: the shop, with one session so the cart is shown in use.
func makeShopWithSession() throws -> (ShopApp, Container) {
    let shop = try ShopApp.makeContainer(logger: RecordingLogger())
    return (shop, try shop.makeSession(user: "alice"))
}

do {
    let arguments = Array(CommandLine.arguments.dropFirst())
    switch arguments.first {
    case nil:
        print("""
            DIToolkit shop demo — a small shop app in modules (ShopCore, Catalog, Cart, Checkout), each feature
            applied as an assembly to its own child of the app container:

              app           logger, HTTP client, order store, \\.clock, \\.paymentConfiguration
              ├── catalog   product catalog (singleton), product listing (transient)
              ├── cart      cart store (singleton), pricing (scoped), cart (matching "session")
              └── checkout  payment gateway (async singleton), checkout service (async)

            Each step lists every resolve it caused, dependencies first: the service, its lifetime, the
            container the resolve ran in ("asked by"), the container that registered it, and whether the
            instance was built for this resolve or reused.
            """)
        let shop = try ShopApp.makeContainer(logger: RecordingLogger())
        let log = ResolutionLog()
        shop.app.addBehavior(log)
        let session = try await Scenario(shop: shop, log: log).run()

        Console.section("The container tree: print(app.graph().text())")
        Console.block(shop.app.graph().text())

        Console.section("Validation: print(await app.validateAsync())")
        let report = await shop.app.validateAsync()
        Console.block("\(report)")
        print("  (validateAsync builds every service, async ones too, in throw-away copies of the containers.)")
        withExtendedLifetime(session) {}

        try demonstrateMisWiring()
        print("")
    case "--dot", "--mermaid", "--json":
        let (shop, session) = try makeShopWithSession()
        let graph = shop.app.graph()
        switch arguments[0] {
        case "--dot": print(graph.dot(), terminator: "")
        case "--mermaid": print(graph.mermaid(), terminator: "")
        default: print(graph.json(), terminator: "")
        }
        withExtendedLifetime(session) {}
    case "--trace":
        let (shop, session) = try makeShopWithSession()
        let trace = try shop.app.trace {
            _ = try shop.catalog.resolve(ProductListing.self)
            _ = try session.resolve((any ShoppingCart).self)
            _ = try session.resolve((any ShoppingCart).self)
        }
        print(trace.log())
    case "--help", "-h":
        print(usage)
    default:
        print("shop-demo: unknown option \(arguments[0]).\n\n\(usage)")
        exit(2)
    }
} catch {
    print("The demo failed: \(error)")
    exit(1)
}
