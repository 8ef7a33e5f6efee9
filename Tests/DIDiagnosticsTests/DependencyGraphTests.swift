import DICore
import DIDiagnostics
import Foundation
import Testing

@Suite struct DependencyGraphTests {
    @Test func printTree() throws {
        let (app, _) = try Graphs.healthy()
        print(app.graph().text())
        print(app.graph().dot())
        print(app.graph().mermaid())
        print(app.graph().json())
        print(app.explain(Repository.self))
        print(app.validate())
    }
}
