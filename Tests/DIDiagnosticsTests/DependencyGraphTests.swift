import DICore
import DIDiagnostics
import Foundation
import Testing

@Suite struct DependencyGraphTests {
    /// The healthy tree with one broken child, so that every marker shows up.
    static func brokenTree() throws -> (app: Container, children: [Container]) {
        let (app, checkout) = try Graphs.healthy()
        try checkout.autoregister(Cart.self, fileID: "App/Checkout.swift", line: 6, initializer: Cart.init)
        try app.register(NotARouter.self, scope: .singleton, fileID: "App/Router.swift", line: 3) { _ in
            NotARouter()
        }.implements((any Router).self, fileID: "App/Router.swift", line: 4)
        return (app, [checkout])
    }

    @Test func textIsTheExactTree() throws {
        let (app, children) = try Self.brokenTree()
        defer { withExtendedLifetime(children) {} }
        #expect(app.graph().text() == """
            app
            ├── any Logger  singleton  App/Setup.swift:7  [DI-OPAQUE]
            ├── Database    singleton  App/Setup.swift:9
            │   └── → any Logger (app)
            ├── Cache       singleton  App/Setup.swift:11  [DI-OPAQUE]
            ├── Repository  singleton  App/Setup.swift:12
            │   ├── → Database (app)
            │   └── → Cache (app)
            ├── NotARouter  singleton  App/Router.swift:3  [DI-OPAQUE]
            ├── any Router  singleton  App/Router.swift:4
            │   └── = alias of NotARouter (app)
            └── checkout
                ├── Cache      singleton  App/Checkout.swift:3  [shadows app]  [DI-SHADOW]  [DI-OPAQUE]
                ├── ViewModel  transient  App/Checkout.swift:4
                │   └── → Repository (app)
                └── Cart       transient  App/Checkout.swift:6  [DI-MISSING]
                    └── → Session (missing)
            9 registrations in 2 containers; findings: 1 error, 0 warnings, 2 notes.
            """)
    }

    @Test func textOfAChildShowsItsAncestorsForContext() throws {
        let (app, checkout) = try Graphs.healthy()
        defer { withExtendedLifetime(app) {} }
        #expect(checkout.graph().text() == """
            app (ancestor)
            ├── any Logger  singleton  App/Setup.swift:7
            ├── Database    singleton  App/Setup.swift:9
            │   └── → any Logger (app)
            ├── Cache       singleton  App/Setup.swift:11
            ├── Repository  singleton  App/Setup.swift:12
            │   ├── → Database (app)
            │   └── → Cache (app)
            └── checkout
                ├── Cache      singleton  App/Checkout.swift:3  [shadows app]  [DI-SHADOW]  [DI-OPAQUE]
                └── ViewModel  transient  App/Checkout.swift:4
                    └── → Repository (app)
            6 registrations in 2 containers; findings: 0 errors, 0 warnings, 2 notes.
            """)
    }

    @Test func aTestContainersOwnRegistrationsAreNotAnAncestor() throws {
        let (app, checkout) = try Graphs.healthy()
        defer { withExtendedLifetime(app) {} }
        let test = Container.makeTestContainer(from: checkout, name: "test")
        defer { test.close() }
        try test.register(Int.self, fileID: "Tests/Checkout.swift", line: 5) { _ in 1 }
        let graph = test.graph()
        let text = graph.text()
        // The own registrations are drawn above the levels they override, as part of the test container: not
        // labelled, dashed or listed as an ancestor, and counted with the test container (as validate() counts).
        #expect(text.hasPrefix("test (own registrations)\n├── Int  transient  Tests/Checkout.swift:5\n"), "\(text)")
        #expect(text.contains("test as app (ancestor)"), "\(text)")
        #expect(text.hasSuffix("7 registrations in 2 containers; findings: 0 errors, 0 warnings, 2 notes."),
                "\(text)")
        #expect(graph.containerCount == 2)
        let report = test.validate()
        #expect(report.containerCount + report.ancestorCount == graph.containerCount)
        #expect(graph.dot().contains("label=\"test (own registrations)\";\n    style=\"rounded\";"), "\(graph.dot())")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(graph.json().utf8)) as? [String: Any])
        let containers = try #require(object["containers"] as? [[String: Any]])
        #expect(containers.map { $0["ancestor"] as? Bool } == [false, true, false])
    }

    @Test func observedEdgesAreMarked() throws {
        let app = Container(name: "app")
        try app.register(Cache.self, scope: .singleton, fileID: "App/Setup.swift", line: 11) { _ in Cache() }
        try app.register(Session.self, fileID: "App/Setup.swift", line: 12) { r in
            _ = try r.resolve(Cache.self)
            return Session()
        }
        #expect(app.graph(instantiating: true).text() == """
            app
            ├── Cache    singleton  App/Setup.swift:11
            └── Session  transient  App/Setup.swift:12
                └── → Cache (app, observed)
            2 registrations in 1 container; findings: 0 errors, 0 warnings, 0 notes.
            """)
    }

    @Test func buildingNamesTheImplementationBehindAProtocol() throws {
        let app = Container(name: "app")
        try app.register((any Logger).self, scope: .singleton, fileID: "App/Setup.swift", line: 7) { _ in
            ConsoleLogger()
        }
        try app.autoregister(Database.self, scope: .singleton, fileID: "App/Setup.swift", line: 9,
                             initializer: Database.init)
        #expect(app.graph(instantiating: true).text() == """
            app
            ├── any Logger  singleton  App/Setup.swift:7  [implementation: ConsoleLogger]
            └── Database    singleton  App/Setup.swift:9
                └── → any Logger (app)
            2 registrations in 1 container; findings: 0 errors, 0 warnings, 0 notes.
            """)
        #expect(app.graph().json().contains("\"implementation\": null"))
        #expect(app.graph(instantiating: true).json().contains("\"implementation\": \"ConsoleLogger\""))
    }

    @Test func keypathRegistrationsPrintAsKeyPaths() throws {
        let app = Container(name: "app")
        try app.register(\.diagnosticsCache, fileID: "App/Keys.swift", line: 2) { _ in Cache() }
        let text = app.graph().text()
        #expect(text.hasPrefix("app\n└── \\.diagnosticsCache  transient  App/Keys.swift:2"))
        let dot = app.graph().dot()
        #expect(dot.contains("label=\"\\\\.diagnosticsCache\\ntransient"))
    }

    @Test func everyRenderingIsDeterministic() throws {
        let (app, children) = try Self.brokenTree()
        defer { withExtendedLifetime(children) {} }
        let (first, second) = (app.graph(), app.graph())
        #expect(first.text() == second.text())
        #expect(first.dot() == second.dot())
        #expect(first.mermaid() == second.mermaid())
        #expect(first.json() == second.json())
    }

    @Test func mermaidIsAFlowchartWithASubgraphPerContainer() throws {
        let (app, children) = try Self.brokenTree()
        defer { withExtendedLifetime(children) {} }
        let mermaid = app.graph().mermaid()
        #expect(mermaid.hasPrefix("flowchart LR\n"))
        #expect(mermaid.contains("  subgraph c0[\"app\"]\n"))
        #expect(mermaid.contains("    subgraph c1[\"checkout\"]\n"))
        #expect(mermaid.contains("  s3 --> s1\n"))
        #expect(mermaid.contains("  s5 ==> s4\n"))
        #expect(mermaid.contains("m0[\"Session<br/>(missing)\"]:::missing"))
    }

    /// A name may hold anything: in Mermaid a quote, an angle bracket and `#` (which starts an entity) are written
    /// as entities, and a line break as `<br/>`, so each label stays on its line.
    @Test func mermaidEscapesWhatANameMayHold() throws {
        let app = Container(name: "app \"main\" <x>")
        try app.register(Int.self, name: "a#quot;b\nc", fileID: "App/Setup.swift", line: 1) { _ in 1 }
        let mermaid = app.graph().mermaid()
        #expect(mermaid.contains("  subgraph c0[\"app #quot;main#quot; #lt;x#gt;\"]\n"), "\(mermaid)")
        #expect(mermaid.contains("    s0[\"Int #quot;a#35;quot;b<br/>c#quot;<br/>transient"), "\(mermaid)")
        #expect(mermaid.split(separator: "\n").allSatisfy { !$0.hasPrefix("c") }, "\(mermaid)")
    }

    /// In the text tree a line break, a tab or another control character in a name is written as its escape,
    /// so that the name cannot break the tree's lines; the other characters are kept as they are.
    @Test func textKeepsEachNameOnItsLine() throws {
        let app = Container(name: "app\nmain")
        let child = app.child(name: "request\t1\u{85}", tags: ["a\rb"])
        try app.register(Int.self, name: "é\nx", fileID: "App/Setup.swift", line: 1) { _ in 1 }
        try child.register(Int.self, name: "é\nx", fileID: "App/Setup.swift", line: 2) { _ in 2 }
        try child.register(String.self, fileID: "App/Setup.swift", line: 3) { r in
            "\(try r.resolve(Int.self, name: "é\nx"))"
        }
        #expect(app.graph().text() == """
            app\\nmain
            ├── Int "é\\nx"  transient  App/Setup.swift:1  [DI-OPAQUE]
            └── request\\t1\\u{0085} [tags: a\\rb]
                ├── Int "é\\nx"  transient  App/Setup.swift:2  [shadows app\\nmain]  [DI-SHADOW]  [DI-OPAQUE]
                └── String      transient  App/Setup.swift:3  [DI-OPAQUE]
            3 registrations in 2 containers; findings: 0 errors, 0 warnings, 2 notes.
            """)
    }

    @Test func dotHasAClusterPerContainerAndRedErrors() throws {
        let (app, children) = try Self.brokenTree()
        defer { withExtendedLifetime(children) {} }
        let dot = app.graph().dot()
        #expect(dot.hasPrefix("digraph DIToolkit {\n"))
        #expect(dot.contains("subgraph cluster_0 {"))
        #expect(dot.contains("subgraph cluster_1 {"))
        #expect(dot.contains("s8 [label=\"Cart\\ntransient\\nDI-MISSING\", fillcolor=\"#e9ecef\", color=red, penwidth=2];"))
        #expect(dot.contains("s5 -> s4 [style=dotted, arrowhead=empty];"))
    }

    /// Renders the DOT of the broken tree with Graphviz when `dot` is installed; `.ci/run` installs it and
    /// also renders the file this test writes to `DITOOLKIT_DOT_OUTPUT`.
    @Test func dotRendersWithGraphviz() throws {
        let (app, children) = try Self.brokenTree()
        defer { withExtendedLifetime(children) {} }
        if let path = ProcessInfo.processInfo.environment["DITOOLKIT_DOT_OUTPUT"] {
            try app.graph().dot().write(toFile: path, atomically: true, encoding: .utf8)
        }
        let dotPath = ["/usr/bin/dot", "/usr/local/bin/dot", "/opt/homebrew/bin/dot"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        guard let dotPath else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: dotPath)
        process.arguments = ["-Tsvg"]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data(app.graph().dot().utf8))
        try input.fileHandleForWriting.close()
        let svg = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(String(decoding: svg, as: UTF8.self).contains("<svg"))
    }

    @Test func jsonParsesAndCarriesItsSchemaVersion() throws {
        let (app, children) = try Self.brokenTree()
        defer { withExtendedLifetime(children) {} }
        let data = Data(app.graph().json().utf8)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["schemaVersion"] as? Int == DependencyGraph.jsonSchemaVersion)
        let services = try #require(object["services"] as? [[String: Any]])
        #expect(services.map { $0["service"] as? String } == [
            "any Logger", "Database", "Cache", "Repository", "NotARouter", "any Router", "Cache", "ViewModel", "Cart",
        ])
        let edges = try #require(object["edges"] as? [[String: Any]])
        #expect(edges.contains { $0["kind"] as? String == "alias" })
        #expect(edges.contains { $0["to"] is NSNull && $0["dependency"] as? String == "Session" })
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(findings.first?["id"] as? String == "DI-MISSING")
        #expect(findings.first?["severity"] as? String == "error")
    }

    @Test func relationshipEdgesAreDrawnByKind() throws {
        let app = try Graphs.relationships()
        final class Widget: Plugin {}
        try app.register((any Plugin).self, fileID: "App/Setup.swift", line: 7) { _ in Widget() }
        let graph = app.graph()
        #expect(graph.text() == """
            app
            ├── Front       singleton  App/Loop.swift:1  [DI-DEFERRED-CYCLE]
            │   └── → Back (app) [deferred]
            ├── Back        singleton  App/Loop.swift:2
            │   └── → Front (app)
            ├── Cache       singleton  App/Setup.swift:3  [DI-OPAQUE]
            ├── Session     transient  App/Setup.swift:4  [DI-OPAQUE]
            ├── Report      transient  App/Setup.swift:5  [arguments: String]  [DI-OPAQUE]
            ├── Dashboard   transient  App/Setup.swift:6
            │   ├── → Cache (app) [deferred]
            │   ├── → Session (app) [per-call]
            │   ├── → Report (app) [assisted]
            │   └── → any Plugin (app) [collection]
            └── any Plugin  transient  App/Setup.swift:7  [DI-OPAQUE]
            7 registrations in 1 container; findings: 0 errors, 0 warnings, 2 notes.
            """)
        let dot = graph.dot()
        #expect(dot.contains("  s0 -> s1 [style=dashed, arrowhead=odot, label=\"deferred\"];\n  s1 -> s0;\n"))
        #expect(dot.contains("  s5 -> s2 [style=dashed, arrowhead=odot, label=\"deferred\"];\n"))
        #expect(dot.contains("  s5 -> s3 [style=dashed, arrowhead=odot, label=\"per-call\"];\n"))
        #expect(dot.contains("  s5 -> s4 [style=dashed, arrowhead=odot, label=\"assisted\"];\n"))
        #expect(dot.contains("  s5 -> s6 [arrowhead=crow, label=\"collection\"];\n"))
        let mermaid = graph.mermaid()
        #expect(mermaid.contains("""
              s0 -.->|deferred| s1
              s1 --> s0
              s5 -.->|deferred| s2
              s5 -.->|per-call| s3
              s5 -.->|assisted| s4
              s5 -->|collection| s6

            """))
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(graph.json().utf8)) as? [String: Any]
        )
        #expect(object["schemaVersion"] as? Int == 1)
        let edges = try #require(object["edges"] as? [[String: Any]])
        #expect(edges.map { "\($0["from"]!)->\($0["to"]!) \($0["kind"]!) \($0["relationship"]!)" } == [
            "s0->s1 declared deferred", "s1->s0 declared direct", "s5->s2 declared deferred",
            "s5->s3 declared per-call", "s5->s4 declared assisted", "s5->s6 declared collection",
        ])
    }

    @Test func aMissingRelationshipTargetIsDrawnMissingWithItsKind() throws {
        final class Consumer: Sendable { init(cache: Lazy<Cache>) {} }
        let app = Container(name: "app")
        try app.autoregister(Consumer.self, fileID: "App/Setup.swift", line: 1, initializer: Consumer.init)
        let graph = app.graph()
        #expect(graph.text().contains("└── → Cache (missing) [deferred]\n"))
        #expect(graph.dot().contains("  s0 -> m0 [color=red, style=dashed, arrowhead=odot, label=\"deferred\"];\n"))
        #expect(graph.mermaid().contains("  s0 -.->|deferred| m0\n"))
    }

    /// Columns are padded by characters, not bytes: `Café` is four characters wide, as `Cafe` is.
    @Test func textAlignsNamesOutsideASCIIByCharacters() throws {
        let app = Container(name: "app")
        try app.autoregister(Café.self, scope: .singleton, fileID: "App/Menu.swift", line: 1, initializer: Café.init)
        try app.autoregister(Cache.self, scope: .singleton, fileID: "App/Menu.swift", line: 2, initializer: Cache.init)
        #expect(app.graph().text() == """
            app
            ├── Café   singleton  App/Menu.swift:1
            └── Cache  singleton  App/Menu.swift:2
            2 registrations in 1 container; findings: 0 errors, 0 warnings, 0 notes.
            """)
    }

    @Test func jsonEscapesQuotesAndBackslashes() throws {
        let app = Container(name: "a \"quoted\" \\ name")
        try app.register(Cache.self, name: "tab\there", fileID: "App/Setup.swift", line: 1) { _ in Cache() }
        let data = Data(app.graph().json().utf8)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["container"] as? String == "a \"quoted\" \\ name")
        let services = try #require(object["services"] as? [[String: Any]])
        #expect(services.first?["name"] as? String == "tab\there")
    }
}

/// A type whose name is not ASCII.
private final class Café: Sendable {}

extension ServiceKeys {
    fileprivate var diagnosticsCache: ServiceKey<Cache> { .init { _ in Cache() } }
}
