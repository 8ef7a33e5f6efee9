import DICore
import DIDiagnostics
import DITestSupport
import Testing

/// The Diagnostics article shows what `validate`, `graph().text()`, `explain` and `trace` print for one small
/// tree, as "the exact output of the package's tests": this builds that tree and compares each `text` block
/// of the article with what the call prints now, so the article cannot drift from the code.
@Suite struct DocumentedOutputTests {
    /// The article's tree, with the locations its output shows.
    static func documentedTree() throws -> (app: Container, checkout: Container) {
        let (app, checkout) = try Graphs.healthy()
        try app.register(NotARouter.self, scope: .singleton, fileID: "App/Router.swift", line: 3) { _ in
            NotARouter()
        }.implements((any Router).self, fileID: "App/Router.swift", line: 4)
        try app.autoregister(Ping.self, scope: .singleton, fileID: "App/Loop.swift", line: 1, initializer: Ping.init)
        try app.autoregister(Pong.self, scope: .singleton, fileID: "App/Loop.swift", line: 2, initializer: Pong.init)
        try checkout.autoregister(Cart.self, fileID: "App/Checkout.swift", line: 6, initializer: Cart.init)
        return (app, checkout)
    }

    @Test func theArticlesOutputsAreWhatTheCallsPrint() throws {
        let blocks = try DocumentationArticle("Sources/DIDiagnostics/Documentation.docc/Diagnostics.md").textBlocks()
        try #require(blocks.count >= 5, "the article's text blocks: \(blocks.count)")
        let (app, checkout) = try Self.documentedTree()
        #expect(blocks[0] == app.validate(instantiating: true).description)
        #expect(blocks[1] == app.graph().text())
        #expect(blocks[2] == checkout.explain(Repository.self).description)
        // The article's trace finds app's cache built already. Its durations differ from run to run: its block
        // is compared without them.
        _ = try app.resolve(Cache.self)
        let trace = try checkout.trace { _ = try checkout.resolve(ViewModel.self) }
        let withoutDurations = blocks[4].split(separator: "\n").map { line in
            line.replacing(#/ {2}[0-9.]+ ms$/#, with: "")
        }.joined(separator: "\n")
        #expect(withoutDurations == trace.log(includingDurations: false))
        // The explanation of a service that a close took away.
        app.close()
        #expect(blocks[3] == checkout.explain(Repository.self).description)
    }
}
