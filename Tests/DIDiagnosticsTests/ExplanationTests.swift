import DICore
import DIDiagnostics
import DIScopes
import Testing

@Suite struct ExplanationTests {
    @Test func explainsProviderLookupScopeDependenciesAndDependents() throws {
        let (app, checkout) = try Graphs.healthy()
        defer { withExtendedLifetime(app) {} }
        #expect(checkout.explain(Repository.self).description == """
            Repository, as checkout resolves it
              provided by:  app (App/Setup.swift:12)
              lookup:       checkout (not here) → app (found)
              scope:        singleton; the instance is held by app, its dependencies come from app
              shadows:      nothing
              dependencies: Database (app, declared), Cache (app, declared)
              dependents:   ViewModel (checkout)
            """)
    }

    @Test func explainsARelationshipEdgeWithItsKind() throws {
        let app = try Graphs.relationships()
        #expect(app.explain(Front.self).dependencies == ["Back (app, declared, deferred)"])
        #expect(app.explain(Dashboard.self).dependencies == [
            "Cache (app, declared, deferred)", "Session (app, declared, per-call)", "Report (app, declared, assisted)",
        ])
        #expect(app.explain(Back.self).dependencies == ["Front (app, declared)"])
    }

    @Test func explainsWhatAnOverrideShadows() throws {
        let (app, checkout) = try Graphs.healthy()
        defer { withExtendedLifetime(app) {} }
        let explanation = checkout.explain(Cache.self)
        #expect(explanation.provider == "checkout")
        #expect(explanation.shadows == ["Cache in app (App/Setup.swift:11)"])
        #expect(app.explain(Cache.self).shadowedBy == ["Cache in checkout (App/Checkout.swift:3)"])
    }

    @Test func explainsAMissingServiceWithSuggestions() throws {
        let (app, checkout) = try Graphs.healthy()
        defer { withExtendedLifetime(checkout) {} }
        #expect(app.explain(Database.self, name: "primary").description == """
            Database "primary", as app resolves it
              provided by:  nothing: it is not registered in app
              did you mean:
                - Database is registered without a name in app (App/Setup.swift:9): resolve it without `name:`.
            """)
    }

    /// A `.matching(tag)` service explained from a container with no such tag on its path says that resolving it
    /// there fails, and where to resolve it instead; from below a tagged container it reads as before.
    @Test func aMatchingServiceExplainedWhereItHasNoPlaceSaysSo() throws {
        let app = Container(name: "app")
        try app.register(Session.self, scope: .matching("session"), fileID: "App/Session.swift", line: 1) { _ in
            Session()
        }
        let screen = app.child(name: "session", tags: ["session"]).child(name: "screen")
        let fromApp = app.explain(Session.self).description
        #expect(fromApp.contains(
            "scope:        matching(\"session\"); one instance per nearest container tagged \"session\", which holds "
                + "it; no container from app up is tagged \"session\", so resolving it from app fails: resolve it "
                + "from a container made with tags: [\"session\"], or from one of its descendants"
        ), "\(fromApp)")
        #expect(throws: ResolutionError.self) { try app.resolve(Session.self) }
        let fromScreen = screen.explain(Session.self).description
        #expect(fromScreen.contains("tagged \"session\", which holds it\n"), "\(fromScreen)")
        #expect(!fromScreen.contains("fails"), "\(fromScreen)")
        _ = try screen.resolve(Session.self)
        // From app, no tag nearby is mistyped: no guess.
        #expect(!fromApp.contains("if that was meant"), "\(fromApp)")
    }

    /// A tag that is a typo of a container's tag: the explanation names the tag probably meant.
    @Test func aMistypedMatchingTagIsNamedWithTheTagProbablyMeant() throws {
        let app = Container(name: "app")
        try app.register(Session.self, scope: .matching("sesion")) { _ in Session() }
        let session = app.child(name: "session alice", tags: ["session"])
        let text = session.explain(Session.self).description
        #expect(text.contains("or from one of its descendants (session alice is tagged \"session\": if that was "
            + "meant, register it with .matching(\"session\"))"), "\(text)")
    }

    /// A value given with `register(_:value:)` is never built and not disposed when its container closes: its
    /// explanation, graph renderings and trace call its lifetime `value`, not `singleton`, which says both.
    @Test func aValueGivenAtRegistrationIsExplainedAndDrawnAsAValue() throws {
        let app = Container(name: "app")
        let request = app.child(name: "request", tags: ["request"])
        try request.register(fileID: "App/Request.swift", line: 3, value: 42)
        try app.register(Session.self, scope: .matching("request"), fileID: "App/Setup.swift", line: 5) { r in
            _ = try r.resolve(Int.self)
            return Session()
        }
        #expect(request.explain(Int.self).description == """
            Int, as request resolves it
              provided by:  request (App/Request.swift:3)
              lookup:       request (found)
              scope:        value; the instance given to register(_:value:), handed out by request as it was given: \
            never built, and not disposed when request closes
              shadows:      nothing
              dependencies: none known
              dependents:   none known
            """)
        let graph = request.graph()
        #expect(graph.text().contains("Int  value  App/Request.swift:3"), "\(graph.text())")
        #expect(graph.dot().contains("Int\\nvalue"), "\(graph.dot())")
        #expect(graph.mermaid().contains("Int<br/>value"), "\(graph.mermaid())")
        #expect(graph.json().contains(#""scope": "value""#), "\(graph.json())")
        let trace = try request.trace { _ = try request.resolve(Session.self) }
        #expect(trace.events.map(\.scope) == [#"matching("request")"#, "value"])
    }
}
