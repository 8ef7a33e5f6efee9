import DICore
import DIDiagnostics
import DIScopes
import Testing

@Suite struct ValidationTests {
    @Test func healthyTreeHasOnlyNotes() throws {
        let (app, checkout) = try Graphs.healthy()
        defer { withExtendedLifetime(checkout) {} }
        let report = app.validate()
        #expect(report.findings.map(\.id) == [.opaque, .shadow])
        #expect(report.findings.map(\.severity) == [.note, .note])
    }

    @Test func missingDependencyIsAnErrorWithPathAndSuggestion() throws {
        let app = Container(name: "app")
        try app.register(Database.self, name: "primary", scope: .singleton, fileID: "App/Setup.swift", line: 9) {
            _ in Database(logger: ConsoleLogger())
        }
        try app.autoregister(Repository.self, scope: .singleton, fileID: "App/Setup.swift", line: 12,
                             initializer: Repository.init)
        let report = app.validate()
        let missing = report.findings.filter { $0.id == .missing }
        #expect(missing.map(\.service) == ["Database", "Cache"])
        let first = try #require(missing.first)
        #expect(first.severity == .error)
        #expect(first.path.map(\.description) == ["Repository", "Database"])
        #expect(first.description == """
            error[DI-MISSING]: Repository needs Database, which is not registered in app or an ancestor \
            (searched app).
              path:
                Repository  singleton  in app  App/Setup.swift:12
                Database    not found  in app
              did you mean:
                - Database "primary" is registered under the name "primary" in app (App/Setup.swift:9): \
            pass name: "primary".
              help: in the factory of Repository (App/Setup.swift:12), resolve it with name: "primary", or register \
            Database without a name in app or an ancestor
            """)
    }

    /// A test container is validated with the graph it resolves: its base chain's registrations, each level
    /// resolving as it does in the base (an app singleton's dependencies from the app's level), under the test's
    /// own overrides. The app singleton's missing dependency is found searched from the test's registrations
    /// and the app, as the app would search; an override that provides it fixes it for the test container alone.
    @Test func aTestContainerIsValidatedWithItsBaseGraphAndItsOverrides() throws {
        let app = Container(name: "app")
        try app.autoregister(Repository.self, scope: .singleton, fileID: "App/Setup.swift", line: 3,
                             initializer: Repository.init)
        try app.register(Cache.self) { _ in Cache() }
        let feature = app.child(name: "feature")
        let test = Container.makeTestContainer(from: feature, name: "test")
        for asked in [test, test.child(name: "screen")] {
            let missing = asked.validate().findings.filter { $0.id == .missing }
            #expect(missing.map(\.service) == ["Database"], "validated from \(asked.name)")
            // The app singleton's dependencies come from the app's level, whichever container asks.
            #expect(missing.first?.message.contains("(searched test → app)") == true, "\(missing)")
            #expect(missing.first?.path.first?.location?.fileID == "App/Setup.swift")
        }
        try test.register(Database.self, scope: .singleton) { _ in Database(logger: ConsoleLogger()) }
        #expect(test.validate().errors.isEmpty, "\(test.validate())")
        #expect(app.validate().errors.map(\.id) == [.missing], "the base is validated as it is")
        #expect(test.explain(Repository.self).description.contains("the instance is held by test"))
    }

    /// A test made from a feature container finds the app singleton whose dependency only the feature
    /// registers, as validating the feature does: statically, and by building it. Before, it modelled the
    /// app's registrations as the test container's own, and found nothing wrong.
    @Test(arguments: [false, true])
    func aTestContainerBelowTheAppFindsWhatTheAppCannotSee(instantiating: Bool) throws {
        let app = Container(name: "app")
        try app.autoregister(Repository.self, scope: .singleton, fileID: "App/Setup.swift", line: 3,
                             initializer: Repository.init)
        try app.register(Cache.self) { _ in Cache() }
        let feature = app.child(name: "feature")
        try feature.autoregister(Database.self, fileID: "App/Feature.swift", line: 5, initializer: Database.init)
        try feature.register((any Logger).self) { _ in ConsoleLogger() }
        let inTheApp = feature.validate(instantiating: instantiating).errors
        #expect(inTheApp.map(\.id) == [.missing], "\(inTheApp)")
        let test = Container.makeTestContainer(from: feature, name: "test")
        let inTheTest = test.validate(instantiating: instantiating).errors
        #expect(inTheTest.map(\.id) == [.missing], "\(inTheTest)")
        #expect(inTheTest.first?.service == "Database")
        #expect(inTheTest.first?.description.contains("Database is registered in feature (App/Feature.swift:5), "
            + "which app cannot see") == true, "\(inTheTest)")
        // The test's own registration reaches the app's singleton, as at run time.
        try test.register(Database.self) { _ in Database(logger: ConsoleLogger()) }
        #expect(test.validate(instantiating: instantiating).errors.isEmpty, "\(test.validate())")
        _ = try test.resolve(Repository.self)
    }

    /// `validate(instantiating: true)` of a test container builds the base's services in copies of the test
    /// container, under its overrides: the base's factory that fails is reported, and an override in the test
    /// container that replaces it is built instead.
    @Test func aTestContainerIsInstantiatedWithItsBaseGraphAndItsOverrides() throws {
        let app = Container(name: "app")
        try app.register(Database.self, scope: .singleton) { _ -> Database in throw BrokenFactory() }
        try app.autoregister(Repository.self, initializer: Repository.init)
        try app.register(Cache.self) { _ in Cache() }
        let test = Container.makeTestContainer(from: app, name: "test")
        let failed = test.validate(instantiating: true).errors
        #expect(failed.map(\.service) == ["Database"], "\(failed)")
        #expect(failed.first?.description.contains("the disk is full") == true, "\(failed)")
        #expect(failed.count == app.validate(instantiating: true).errors.count)
        try test.register(Database.self, scope: .singleton) { _ in Database(logger: ConsoleLogger()) }
        #expect(test.validate(instantiating: true).errors.isEmpty, "\(test.validate(instantiating: true))")
    }

    @Test func optionalDependencyIsNotMissing() throws {
        final class Consumer: Sendable { init(cache: Cache?) {} }
        let app = Container(name: "app")
        try app.autoregister(Consumer.self, initializer: Consumer.init)
        #expect(app.validate().findings.filter { $0.id == .missing }.isEmpty)
    }

    @Test func cycleIsFoundOnceWithTheWholeLoop() throws {
        let app = Container(name: "app")
        try app.autoregister(Ping.self, scope: .singleton, fileID: "App/Loop.swift", line: 1, initializer: Ping.init)
        try app.autoregister(Pong.self, scope: .singleton, fileID: "App/Loop.swift", line: 2, initializer: Pong.init)
        let cycles = app.validate().findings.filter { $0.id == .cycle }
        #expect(cycles.count == 1)
        let cycle = try #require(cycles.first)
        #expect(cycle.path.map(\.description) == ["Ping", "Pong", "Ping"])
        #expect(cycle.description == """
            error[DI-CYCLE]: Ping depends on itself: Ping → Pong → Ping.
              path:
                Ping  singleton  in app  App/Loop.swift:1
                Pong  singleton  in app  App/Loop.swift:2
                Ping  singleton  in app  App/Loop.swift:1
              help: Break the cycle where Pong needs Ping: inject it as Lazy<Ping> or Provider<Ping> (a loop \
            through them is no construction cycle), or move what both need into a service of its own.
            """)
    }

    /// The headline counts what was checked: the container, its descendants and its ancestors, whose registrations
    /// are checked too (what the subtree resolves from them), and says how many of the containers are ancestors.
    @Test func theHeadlineCountsTheAncestorsItChecked() async throws {
        let app = Container(name: "app")
        try app.register((any Logger).self, scope: .singleton) { _ in ConsoleLogger() }
        try app.autoregister(Database.self, scope: .singleton, initializer: Database.init)
        let checkout = app.child(name: "checkout")
        try checkout.autoregister(Repository.self, initializer: Repository.init)
        let screen = checkout.child(name: "screen")
        try screen.register(Int.self) { _ in 1 }
        let whole = app.validate()
        #expect((whole.registrationCount, whole.containerCount, whole.ancestorCount) == (4, 3, 0))
        #expect("\(whole)".hasPrefix("Validated app: 4 registrations in 3 containers:"))
        for report in [checkout.validate(), checkout.validate(instantiating: true), await checkout.validateAsync()] {
            #expect((report.registrationCount, report.containerCount, report.ancestorCount) == (4, 2, 1))
            #expect("\(report)".hasPrefix("Validated checkout: 4 registrations in 2 containers and 1 ancestor:"),
                    "\(report)")
        }
        #expect("\(screen.validate())".hasPrefix("Validated screen: 4 registrations in 1 container and 2 ancestors:"))
        // A test container made from screen counts screen's ancestors, not the node of its own registrations
        // (drawn above them, as they override them), and its own registration with the rest.
        let test = Container.makeTestContainer(from: screen, name: "test")
        defer { test.close() }
        try test.register(Double.self) { _ in 1 }
        for report in [test.validate(), test.validate(instantiating: true), await test.validateAsync()] {
            #expect((report.registrationCount, report.containerCount, report.ancestorCount) == (5, 1, 2), "\(report)")
        }
        #expect("\(test.validate())".hasPrefix("Validated test: 5 registrations in 1 container and 2 ancestors:"))
    }

    @Test func aServiceThatNeedsItselfIsToldToResolveTheAncestorsRegistration() throws {
        struct Prefixed: Logger { let inner: any Logger }
        let app = Container(name: "app")
        try app.register((any Logger).self, scope: .singleton, fileID: "App/Setup.swift", line: 3) { _ in
            ConsoleLogger()
        }
        let checkout = app.child(name: "checkout")
        try checkout.autoregister((any Logger).self, fileID: "Checkout/Setup.swift", line: 7,
                                  initializer: Prefixed.init)
        let cycle = try #require(app.validate().findings.first { $0.id == .cycle })
        #expect(cycle.description == """
            error[DI-CYCLE]: any Logger depends on itself: any Logger → any Logger.
              path:
                any Logger  transient  in checkout  Checkout/Setup.swift:7
                any Logger  transient  in checkout  Checkout/Setup.swift:7
              help: any Logger needs any Logger, which from checkout is this same registration. To wrap the any \
            Logger that app registers (a decorator), take the wrapped service by a key of its own: register it in \
            app as its concrete type, with .implements((any Logger).self) so that the rest of the graph still finds \
            it, and take that type here.
            """)

        let alone = Container(name: "alone")
        try alone.autoregister((any Logger).self, initializer: Prefixed.init)
        let own = try #require(alone.validate().findings.first { $0.id == .cycle })
        #expect(own.help == "any Logger needs any Logger, which from alone is this same registration: a service "
            + "cannot be built from itself. Build it without one, or depend on another type or name.")
    }

    @Test func aPlainLoopIsNoDeferredCycle() throws {
        let app = Container(name: "app")
        try app.autoregister(Ping.self, scope: .singleton, initializer: Ping.init)
        try app.autoregister(Pong.self, scope: .singleton, initializer: Pong.init)
        let ids = app.validate().findings.map(\.id)
        #expect(ids.contains(.cycle))
        #expect(!ids.contains(.deferredCycle))
    }

    @Test func aLoopThroughLazyIsANoteNotACycle() throws {
        let app = try Graphs.relationships()
        let report = app.validate()
        #expect(!report.findings.contains { $0.id == .cycle })
        #expect(!report.hasErrors)
        let notes = report.findings.filter { $0.id == .deferredCycle }
        #expect(notes.count == 1)
        let note = try #require(notes.first)
        #expect(note.severity == .note)
        #expect(note.path.map(\.description) == ["Front", "Back", "Front"])
        #expect(note.description == """
            note[DI-DEFERRED-CYCLE]: Front and Back need each other through a relationship: Front → Back → Front. \
            The loop is broken by Lazy<Back> in Front, which resolves Back after Front is built, so it is no \
            construction cycle.
              path:
                Front  singleton  in app  App/Loop.swift:1
                Back   singleton  in app  App/Loop.swift:2
                Front  singleton  in app  App/Loop.swift:1
              help: Nothing to do if the loop is meant; reading the Lazy<Back> from Front's initializer or factory, \
            while Front is being built, would still fail with a cycle error.
            """)
    }

    /// A build meets the loop the note calls broken: the relationship is read while its owner is being built.
    /// The report then has the cycle, with the way out for a relationship used too early, and not the note.
    @Test func aLoopThroughARelationshipReadTooEarlyIsACycleOnceBuilt() throws {
        final class Left: Sendable {
            init(right: Provider<Right>) throws { _ = try right() }
        }
        final class Right: Sendable { init(left: Left) {} }
        let app = Container(name: "app")
        try app.autoregister(Left.self, initializer: Left.init)
        try app.autoregister(Right.self, initializer: Right.init)
        #expect(app.validate().findings.map(\.id) == [.deferredCycle])
        let report = app.validate(instantiating: true)
        #expect(!report.findings.contains { $0.id == .deferredCycle })
        let cycle = try #require(report.findings.first { $0.id == .cycle })
        #expect(cycle.path.map(\.description) == ["Left", "Provider<Right>", "Right", "Left"])
        #expect(cycle.help == "Break the cycle: Left uses its Provider<Right> while Left is still being built "
            + "(Left's initializer or factory reads it), and that needs Left again. Use it later, once Left is built "
            + "(where the value is first needed), not while Left is being made; or move what both need into a "
            + "service of its own.")
        #expect(!app.graph(instantiating: true).text().contains("DI-DEFERRED-CYCLE"))
    }

    @Test func aLoopThroughProviderNamesTheProvider() throws {
        final class Left: Sendable { init(right: Provider<Right>) {} }
        final class Right: Sendable { init(middle: Middle) {} }
        final class Middle: Sendable { init(left: Left) {} }
        let app = Container(name: "app")
        try app.autoregister(Left.self, initializer: Left.init)
        try app.autoregister(Right.self, initializer: Right.init)
        try app.autoregister(Middle.self, initializer: Middle.init)
        let findings = app.validate().findings
        #expect(!findings.contains { $0.id == .cycle })
        let note = try #require(findings.first { $0.id == .deferredCycle })
        #expect(note.path.map(\.description) == ["Left", "Right", "Middle", "Left"])
        #expect(note.message.contains("Left → Right → Middle → Left"))
        #expect(note.message.contains("Provider<Right> in Left"))
    }

    @Test func aDirectLoopBesideADeferredEdgeIsStillACycle() throws {
        final class Owner: Sendable { init(ping: Ping, lazyPing: Lazy<Ping>) {} }
        let app = Container(name: "app")
        try app.autoregister(Ping.self, scope: .singleton, initializer: Ping.init)
        try app.autoregister(Pong.self, scope: .singleton, initializer: Pong.init)
        try app.autoregister(Owner.self, initializer: Owner.init)
        let cycles = app.validate().findings.filter { $0.id == .cycle }
        #expect(cycles.map { $0.path.map(\.description) } == [["Ping", "Pong", "Ping"]])
    }

    @Test func anEmptyCollectionIsNotMissing() throws {
        final class Host: Sendable { init(plugins: All<any Plugin>) {} }
        let app = Container(name: "app")
        try app.autoregister(Host.self, initializer: Host.init)
        let report = app.validate()
        #expect(report.findings.filter { $0.id == .missing }.isEmpty)
        #expect(!report.hasErrors)
    }

    @Test func aRelationshipToAnUnregisteredTypeIsMissing() throws {
        final class Consumer: Sendable {
            init(cache: Lazy<Cache>, sessions: Provider<Session>, makeReport: Provider<Report, String>) {}
        }
        let app = Container(name: "app")
        try app.autoregister(Consumer.self, initializer: Consumer.init)
        let missing = app.validate().findings.filter { $0.id == .missing }
        #expect(missing.map(\.service) == ["Cache", "Session", "Report"])
        #expect(missing.allSatisfy { $0.severity == .error })
    }

    @Test func anAssistedProviderNeedsARegistrationWithArguments() throws {
        final class Consumer: Sendable { init(makeReport: Provider<Report, String>) {} }
        let app = Container(name: "app")
        try app.register(Report.self) { _ in Report(quarter: "") }
        try app.autoregister(Consumer.self, initializer: Consumer.init)
        #expect(app.validate().findings.contains { $0.id == .missing && $0.service == "Report" })
        try app.register(Report.self) { (_: any Resolver, quarter: String) in Report(quarter: quarter) }
        #expect(!app.validate().findings.contains { $0.id == .missing })
    }

    /// A relationship or parameter whose runtime arguments do not fit the registration is missing: it fails
    /// when its owner is built. The finding names what the owner asks for, what the registration takes, and
    /// the parameter type that fits; a `Provider` with the right arguments is no finding.
    @Test func aRelationshipWhoseArgumentsDoNotFitIsMissingAndNamesTheTypeThatFits() throws {
        final class Consumer: Sendable {
            init(fits: Provider<Report, String>, other: Provider<Report, Int>, lazy: Lazy<Report>, direct: Report) {}
        }
        final class Plain: Sendable { init(make: Provider<Session, Int>) {} }
        let app = Container(name: "app")
        try app.register(Report.self, fileID: "App/Setup.swift", line: 5) { (_: any Resolver, quarter: String) in
            Report(quarter: quarter)
        }
        try app.register(Session.self, fileID: "App/Setup.swift", line: 4) { _ in Session() }
        try app.autoregister(Consumer.self, fileID: "App/Setup.swift", line: 6, initializer: Consumer.init)
        try app.autoregister(Plain.self, fileID: "App/Setup.swift", line: 7, initializer: Plain.init)
        let missing = app.validate().findings.filter { $0.id == .missing }
        #expect(missing.map(\.message) == [
            "Consumer needs Provider<Report, Int>, but Report is registered in app (App/Setup.swift:5) with the "
                + "runtime arguments (String).",
            "Consumer needs Lazy<Report>, but Report is registered in app (App/Setup.swift:5) with the runtime "
                + "arguments (String).",
            "Consumer needs Report, but Report is registered in app (App/Setup.swift:5) with the runtime arguments "
                + "(String).",
            "Plain needs Provider<Session, Int>, but Session is registered in app (App/Setup.swift:4) without "
                + "runtime arguments.",
        ])
        #expect(missing.map(\.help) == [
            "Inject Provider<Report, String> instead.",
            "Inject Provider<Report, String> instead.",
            "Inject Provider<Report, String> instead.",
            "Inject Session or Provider<Session> instead, or register Session with a factory that takes the "
                + "arguments Int.",
        ])
    }

    @Test func aProviderKeepsNothingCaptiveButALazyDoes() throws {
        final class ByProvider: Sendable { init(sessions: Provider<Session>) {} }
        final class ByLazy: Sendable { init(session: Lazy<Session>) {} }
        let app = Container(name: "app")
        try app.register(Session.self) { _ in Session() }
        try app.autoregister(ByProvider.self, scope: .singleton, initializer: ByProvider.init)
        try app.autoregister(ByLazy.self, scope: .singleton, initializer: ByLazy.init)
        let captives = app.validate().findings.filter { $0.id == .captive }
        #expect(captives.map(\.service) == ["ByLazy"])
    }

    @Test func singletonHoldingATransientIsCaptive() throws {
        let app = Container(name: "app")
        try app.register((any Logger).self, fileID: "App/Setup.swift", line: 7) { _ in ConsoleLogger() }
        try app.autoregister(Database.self, scope: .singleton, fileID: "App/Setup.swift", line: 9,
                             initializer: Database.init)
        let captive = try #require(app.validate().findings.first { $0.id == .captive })
        #expect(captive.severity == .warning)
        #expect(captive.description == """
            warning[DI-CAPTIVE]: Database (singleton) keeps any Logger (transient), which should not outlive \
            it: the singleton instance holds on to the any Logger it was built with for as long as it lives.
              path:
                Database    singleton  in app  App/Setup.swift:9
                any Logger  transient  in app  App/Setup.swift:7
              help: Give any Logger a lifetime at least as long as singleton, or inject a factory (a closure or a \
            Provider) and resolve any Logger when it is needed.
            """)
    }

    @Test func scopedHoldingScopedIsNotCaptive() throws {
        let app = Container(name: "app")
        try app.register((any Logger).self, scope: .scoped) { _ in ConsoleLogger() }
        try app.autoregister(Database.self, scope: .scoped, initializer: Database.init)
        #expect(app.validate().findings.filter { $0.id == .captive }.isEmpty)
    }

    @Test func matchingServiceReachedWithoutItsTagIsAnError() throws {
        let app = Container(name: "app")
        try app.register(Session.self, scope: .matching("session"), fileID: "App/Session.swift", line: 2) { _ in
            Session()
        }
        try app.autoregister(Cart.self, fileID: "App/Cart.swift", line: 5, initializer: Cart.init)
        let session = app.child(name: "session", tags: ["session"])
        let report = app.validate()
        let matching = report.findings.filter { $0.id == .matching }
        #expect(matching.count == 1)
        let finding = try #require(matching.first)
        #expect(finding.container == "app")
        #expect(finding.description == """
            error[DI-MATCHING]: Cart needs Session, whose lifetime is matching("session"), but no container on \
            the path from app is tagged "session".
              path:
                Cart     transient            in app  App/Cart.swift:5
                Session  matching("session")  in app  App/Session.swift:2
              help: Resolve Cart from a container tagged "session" (or a descendant), or give Session a \
            lifetime that does not need one.
            """)
        // From the tagged child, the same wiring is fine.
        #expect(session.validate().findings.filter { $0.id == .matching }.isEmpty)
        // Building everything finds the same problem once, and does not ask for Session from untagged app.
        let deep = app.validate(instantiating: true).findings.filter { $0.id == .matching }
        #expect(deep.map(\.service) == ["Session"])
        #expect(deep.map(\.container) == ["app"])
    }

    /// A singleton is built where it is registered whoever resolves it, so a tagged asker does not help it: the
    /// advice is the lifetime, and following it makes the graph valid from the tagged child.
    @Test func aSingletonThatNeedsAMatchingServiceIsToldToChangeItsLifetime() throws {
        let app = Container(name: "app")
        try app.register(Session.self, scope: .matching("session"), fileID: "App/Session.swift", line: 2) { _ in
            Session()
        }
        try app.autoregister(Cart.self, scope: .singleton, fileID: "App/Cart.swift", line: 5, initializer: Cart.init)
        let session = app.child(name: "session", tags: ["session"])
        let finding = try #require(session.validate().findings.first { $0.id == .matching })
        #expect(finding.help == "Cart needs Session, and is a singleton service of app, built in app whichever "
            + "container resolves it. Give Cart a lifetime no longer than Session's (such as .matching(\"session\")), "
            + "so that it is built where that tag is seen, or register Session with another scope.")
        #expect(throws: ResolutionError.self) { try session.resolve(Cart.self) }
        try app.autoregister(Cart.self, scope: .matching("session"), fileID: "App/Cart.swift", line: 5,
                             initializer: Cart.init)
        #expect(session.validate().findings.filter { $0.id == .matching }.isEmpty)
        _ = try session.resolve(Cart.self)
    }

    /// A `.matching` service built in its own tagged container resolves its dependencies there: a container
    /// tagged for what it needs must be that one or above it, which the help says — and following it makes the
    /// graph valid — where "resolve it from a container tagged session" would not help (the cart is built in the
    /// request container whoever asks).
    @Test func aTaggedServiceNeedingAnotherTagIsToldWhereThatTagMustBe() throws {
        let app = Container(name: "app")
        try app.register(Session.self, scope: .matching("session"), fileID: "App/Session.swift", line: 2) { _ in
            Session()
        }
        try app.autoregister(Cart.self, scope: .matching("request"), fileID: "App/Cart.swift", line: 5,
                             initializer: Cart.init)
        let request = app.child(name: "request", tags: ["request"])
        let findings = request.validate().findings.filter { $0.id == .matching }
        #expect(findings.count == 1)
        let finding = try #require(findings.first)
        #expect(finding.help == """
            Cart is a matching("request") service, built in request and resolving its dependencies there, so a \
            container tagged "session" must be request or above it: make request under one (for example \
            app.child(name: "session", tags: ["session"]).child(name: "request", tags: ["request"])), or tag \
            request "session" as well. If a "session" container lives inside request instead, give Cart a lifetime \
            no longer than Session's (such as .matching("session")); or register Session with another scope.
            """)
        let session = app.child(name: "session", tags: ["session"])
        let under = session.child(name: "request", tags: ["request"])
        #expect(session.validate().findings.filter { $0.id == .matching }.isEmpty)
        _ = try under.resolve(Cart.self)
    }

    /// Through a transient (built where its dependent is), the singleton is the one to change.
    @Test func aSingletonThatNeedsAMatchingServiceThroughATransientIsTheOneAdvised() throws {
        struct Checkout: Sendable { let cart: Cart }
        let app = Container(name: "app")
        try app.register(Session.self, scope: .matching("session"), fileID: "App/Session.swift", line: 2) { _ in
            Session()
        }
        try app.autoregister(Checkout.self, scope: .singleton, fileID: "App/Checkout.swift", line: 4,
                             initializer: Checkout.init)
        try app.autoregister(Cart.self, fileID: "App/Cart.swift", line: 5, initializer: Cart.init)
        let session = app.child(name: "session", tags: ["session"])
        let finding = try #require(session.validate().findings.first { $0.id == .matching })
        #expect(finding.help.hasPrefix("Checkout needs Session through Cart, and is a singleton service of app"),
                "\(finding)")
    }

    /// A transient that needs a `.matching` service fails when asked from an untagged container (a tagged asker
    /// helps it), and a singleton above it fails everywhere (its lifetime is what to change): both are reported,
    /// each with its own way out, whichever of the two is registered first.
    @Test(arguments: [true, false])
    func everyWayToAMatchingServiceIsReportedWhateverTheOrder(transientFirst: Bool) throws {
        final class Layout: Sendable { init(_ session: Session) {} }
        final class Page: Sendable { init(_ layout: Layout) {} }
        final class Shell: Sendable { init(_ layout: Layout) {} }
        let app = Container(name: "app")
        try app.register(Session.self, scope: .matching("session"), fileID: "App/Session.swift", line: 2) { _ in
            Session()
        }
        let registerLayout = { try app.autoregister(Layout.self, fileID: "App/Layout.swift", line: 3,
                                                    initializer: Layout.init) }
        if transientFirst { _ = try registerLayout() }
        try app.autoregister(Page.self, scope: .singleton, fileID: "App/Page.swift", line: 4, initializer: Page.init)
        if !transientFirst { _ = try registerLayout() }
        try app.autoregister(Shell.self, scope: .cached, fileID: "App/Shell.swift", line: 5, initializer: Shell.init)
        let findings = app.validate().findings.filter { $0.id == .matching }
        let ways = findings.map { $0.path.map(\.description).joined(separator: " → ") }
        #expect(Set(ways) == ["Layout → Session", "Page → Layout → Session", "Shell → Layout → Session"],
                "\(findings)")
        #expect(findings.count == 3)
        for finding in findings {
            let first = finding.path[0].description
            let needs = first == "Layout" ? "Layout needs Session" : first + " needs Session through Layout"
            #expect(finding.message == needs + ", whose lifetime is matching(\"session\"), but no container on the "
                + "path from app is tagged \"session\".")
            #expect(finding.help.hasPrefix(first == "Layout"
                ? "Resolve Layout from a container tagged \"session\""
                : "\(first) needs Session through Layout, and is a \(first == "Page" ? "singleton" : "cached") service "
                    + "of app"), "\(finding)")
        }
        // From the tagged child the transient is fine; both keepers are still reported.
        let session = app.child(name: "session", tags: ["session"])
        let fromSession = session.validate().findings.filter { $0.id == .matching }
        #expect(Set(fromSession.map { $0.path[0].description }) == ["Page", "Shell"], "\(fromSession)")
        // Each finding is marked on the service to change: the singletons, not the transient they share.
        #expect(session.explain(Page.self).findings.contains(.matching))
        #expect(session.explain(Shell.self).findings.contains(.matching))
        #expect(!session.explain(Layout.self).findings.contains(.matching))
        #expect(app.explain(Layout.self).findings.contains(.matching))
        // Following the advice makes the graph valid from the tagged child.
        try app.autoregister(Page.self, scope: .matching("session"), initializer: Page.init)
        try app.autoregister(Shell.self, scope: .matching("session"), initializer: Shell.init)
        #expect(session.validate().findings.filter { $0.id == .matching }.isEmpty)
        _ = try session.resolve(Page.self)
        _ = try session.resolve(Shell.self)
    }

    /// An app singleton that needs a `.matching("session")` service has no tagged container on its path, also
    /// when it is asked from below the tagged session container: the app builds it. A test container made from
    /// there finds that as the tree does, statically and at run time (it carries the session's tag, but its
    /// view of the app's level does not).
    @Test func aTestContainerBelowATagFindsAnAppSingletonThatNeedsTheTag() throws {
        let app = Container(name: "app")
        try app.register(Session.self, scope: .matching("session")) { _ in Session() }
        try app.autoregister(Cart.self, scope: .singleton, initializer: Cart.init)
        let screen = app.child(name: "session", tags: ["session"]).child(name: "screen")
        let inTheTree = screen.validate().findings.filter { $0.id == .matching }
        #expect(inTheTree.map(\.service) == ["Session"], "\(inTheTree)")
        let test = Container.makeTestContainer(from: screen, name: "test")
        let inTheTest = test.validate().findings.filter { $0.id == .matching }
        #expect(inTheTest.map(\.service) == ["Session"], "\(inTheTest)")
        #expect(inTheTest.first?.message.hasPrefix("Cart needs Session") == true)
        let treeError = try #require(throws: ResolutionError.self) { try screen.resolve(Cart.self) }
        let testError = try #require(throws: ResolutionError.self) { try test.resolve(Cart.self) }
        #expect(testError.code == treeError.code)
        // The session's own services are placed in the test container's view of the session, as in the tree.
        #expect(try test.resolve(Session.self) === test.resolve(Session.self))
    }

    /// A tag no container carries, an edit or two from one that a container does: a typo that fails every
    /// resolve. Validating the app, the tagged child or a test container finds it; the right tag, or a tag that
    /// no container carries yet and is close to none (a server's "request" at start-up), is no finding.
    @Test func aMatchingTagThatIsATypoOfAContainersTagIsAWarning() throws {
        let app = Container(name: "app")
        try app.register(Session.self, scope: .matching("sesion"), fileID: "App/Session.swift", line: 2) { _ in
            Session()
        }
        let session = app.child(name: "session alice", tags: ["session"])
        let test = Container.makeTestContainer(from: session, name: "test")
        let inTheTest = test.validate().findings.filter { $0.id == .matching }
        #expect(inTheTest.map(\.severity) == [.warning], "\(inTheTest)")
        #expect(inTheTest.first?.message.contains(#"with .matching("sesion") in test as app"#) == true)
        for container in [app, session] {
            let found = container.validate().findings.filter { $0.id == .matching }
            #expect(found.count == 1, "\(container.name): \(found)")
            #expect(found.first?.description == """
                warning[DI-MATCHING]: Session is registered with .matching("sesion") in app (App/Session.swift:2), \
                but no container here is tagged "sesion"; session alice is tagged "session". Every resolve of \
                Session fails until a container tagged "sesion" asks.
                  path:
                    Session  matching("sesion")  in app  App/Session.swift:2
                  help: If Session should live once per session alice, register it with .matching("session") at \
                App/Session.swift:2.
                """, "\(container.name)")
        }
        #expect(throws: ResolutionError.self) { try session.resolve(Session.self) }

        try app.register(Session.self, scope: .matching("session")) { _ in Session() }
        #expect(app.validate().findings.filter { $0.id == .matching }.isEmpty)
        try app.register(Session.self, scope: .matching("request")) { _ in Session() }
        #expect(app.validate().findings.filter { $0.id == .matching }.isEmpty)
    }

    @Test func childOverrideIsAShadowNote() throws {
        let (app, checkout) = try Graphs.healthy()
        defer { withExtendedLifetime(checkout) {} }
        let shadow = try #require(app.validate().findings.first { $0.id == .shadow })
        #expect(shadow.description == """
            note[DI-SHADOW]: checkout registers Cache (App/Checkout.swift:3), which hides the registration in \
            app (App/Setup.swift:11) for checkout and its descendants.
              path:
                Cache  singleton  in checkout  App/Checkout.swift:3
                Cache  singleton  in app       App/Setup.swift:11
              help: Nothing to do if the override is meant; otherwise remove one of the two registrations.
            """)
    }

    @Test func closureFactoriesAreCountedAsOpaque() throws {
        let (app, checkout) = try Graphs.healthy()
        defer { withExtendedLifetime(checkout) {} }
        let opaque = try #require(app.validate().findings.first { $0.id == .opaque })
        #expect(opaque.service == "3 registrations")
        #expect(opaque.description == """
            note[DI-OPAQUE]: 3 registrations have dependencies that cannot be seen without running their \
            factories; they were not checked for missing dependencies, cycles or captives: any Logger in app \
            (App/Setup.swift:7); Cache in app (App/Setup.swift:11); Cache in checkout (App/Checkout.swift:3).
              help: Register them with autoregister(_:initializer:), or run validate(instantiating: true) to \
            observe what their factories resolve.
            """)
        // Building them shows what they resolve: nothing is opaque any more.
        #expect(app.validate(instantiating: true).findings.filter { $0.id == .opaque }.isEmpty)
    }

    @Test func aliasThatDoesNotConformIsFoundWhenInstantiating() throws {
        let app = Container(name: "app")
        try app.register(NotARouter.self, scope: .singleton, fileID: "App/Router.swift", line: 3) { _ in
            NotARouter()
        }.implements((any Router).self, fileID: "App/Router.swift", line: 4)
        let report = app.validate(instantiating: true)
        let alias = try #require(report.findings.first { $0.id == .alias })
        #expect(alias.severity == .error)
        #expect(alias.service == "any Router")
        #expect(alias.path.first?.location?.description == "App/Router.swift:4")
    }

    @Test func instantiatingObservesClosureEdgesAndFindsMissing() throws {
        let app = Container(name: "app")
        try app.register(Repository.self, scope: .singleton, fileID: "App/Setup.swift", line: 12) { r in
            Repository(database: try r.resolve(Database.self), cache: Cache())
        }
        #expect(app.validate().findings.map(\.id) == [.opaque])
        let deep = app.validate(instantiating: true)
        let missing = try #require(deep.findings.first { $0.id == .missing })
        #expect(missing.service == "Database")
        #expect(missing.path.map(\.description) == ["Repository", "Database"])
    }

    @Test func instantiatingReportsFailingFactoriesAndBuildsNothingReal() throws {
        final class Counter: Sendable {
            let count = Lock(0)
        }
        let built = Counter()
        let app = Container(name: "app")
        try app.register(Cache.self, scope: .singleton) { _ in
            built.count.withLock { $0 += 1 }
            return Cache()
        }
        try app.register(Session.self) { _ in throw BrokenFactory() }
        let report = app.validate(instantiating: true)
        let failure = try #require(report.findings.first { $0.id == .build })
        #expect(failure.service == "Session")
        #expect(failure.message.contains("the disk is full"))
        // The copy built a Cache; the real container's singleton is still unbuilt.
        #expect(built.count.withLock { $0 } == 1)
        _ = try app.resolve(Cache.self)
        #expect(built.count.withLock { $0 } == 2)
    }

    @Test func instantiatingFindsCyclesThroughClosures() throws {
        let app = Container(name: "app")
        try app.register(Ping.self) { r in Ping(pong: try r.resolve(Pong.self)) }
        try app.register(Pong.self) { r in Pong(ping: try r.resolve(Ping.self)) }
        let cycles = app.validate(instantiating: true).findings.filter { $0.id == .cycle }
        #expect(!cycles.isEmpty)
        #expect(cycles.allSatisfy { $0.severity == .error })
    }

    @Test func reportOrderIsDeterministic() throws {
        let (app, checkout) = try Graphs.healthy()
        try checkout.autoregister(Ping.self, initializer: Ping.init)
        let first = app.validate().description
        let second = app.validate().description
        #expect(first == second)
        let severities = app.validate().findings.map(\.severity)
        #expect(severities == severities.sorted(by: >))
    }

    @Test(.timeLimit(.minutes(1)))
    func asyncVariantBuildsAsyncFactoriesToo() async throws {
        let app = Container(name: "app")
        try app.registerAsync(Cache.self, scope: .singleton) { _ in Cache() }
        try app.registerAsync(Session.self) { _ in throw BrokenFactory() }
        #expect(app.validate(instantiating: true).findings.filter { $0.severity == .error }.isEmpty)
        let report = await app.validateAsync()
        #expect(report.findings.filter { $0.severity == .error }.map(\.id) == [.build])
        #expect(report.findings.first?.service == "Session")
    }

    /// What building in copies leaves opaque is told apart from what it never tried: the DI-OPAQUE note sends
    /// async factories to `validateAsync()`, which builds them, and no longer to `validate(instantiating: true)`,
    /// which skips them.
    @Test(.timeLimit(.minutes(1)))
    func theOpaqueNoteSaysWhichCheckBuildsWhatIsLeft() async throws {
        let app = Container(name: "app")
        try app.registerAsync(Cache.self, scope: .singleton) { _ in Cache() }
        let plain = try #require(app.validate().findings.first { $0.id == .opaque })
        #expect(plain.help.contains("or run validateAsync() (validate(instantiating: true) builds only synchronous "
            + "factories)"), "\(plain)")
        let built = try #require(app.validate(instantiating: true).findings.first { $0.id == .opaque })
        #expect(built.message.contains("which the check did not build"), "\(built)")
        #expect(built.help.hasPrefix("validate(instantiating: true) builds only synchronous factories: run "
            + "validateAsync() to build those with an async factory too"), "\(built)")
        #expect(await app.validateAsync().findings.allSatisfy { $0.id != .opaque })
        // Synchronous factories only: instantiating is the advice, and then nothing is left.
        let sync = Container(name: "sync")
        try sync.register(Session.self) { _ in Session() }
        #expect(sync.validate().findings.first { $0.id == .opaque }?.help.hasSuffix("or run validate(instantiating: "
            + "true) to observe what their factories resolve.") == true)
        #expect(sync.validate(instantiating: true).findings.allSatisfy { $0.id != .opaque })
    }

    /// A loop that only building finds (closure factories) is one DI-CYCLE however many of its services the build
    /// starts from, worded as the static one; a loop of async factories is broken with an `AsyncProvider`.
    @Test(.timeLimit(.minutes(1)), arguments: [false, true])
    func aCycleFoundByBuildingIsOneFinding(async: Bool) async throws {
        final class Egg: Sendable { init(_ hen: Hen) {} }
        final class Hen: Sendable { init(_ egg: Egg) {} }
        final class Farm: Sendable { init(_ egg: Egg) {} }
        let app = Container(name: "app")
        // Outside the loop, leading into it: the finding is the loop's, not Farm's.
        try app.register(Farm.self) { r in Farm(try r.resolve(Egg.self)) }
        if async {
            try app.registerAsync(Egg.self, scope: .singleton) { r in Egg(try await r.resolveAsync(Hen.self)) }
            try app.registerAsync(Hen.self) { r in Hen(try await r.resolveAsync(Egg.self)) }
        } else {
            try app.register(Egg.self, scope: .singleton) { r in Egg(try r.resolve(Hen.self)) }
            try app.register(Hen.self) { r in Hen(try r.resolve(Egg.self)) }
        }
        let report = async ? await app.validateAsync() : app.validate(instantiating: true)
        let cycles = report.findings.filter { $0.id == .cycle }
        #expect(cycles.count == 1, "\(report)")
        let cycle = try #require(cycles.first)
        #expect(["Egg", "Hen"].contains(cycle.service), "\(cycle)")
        #expect(!cycle.path.contains { $0.description == "Farm" }, "\(cycle)")
        #expect(cycle.message == "\(cycle.service) depends on itself: "
            + cycle.path.map(\.description).joined(separator: " → ") + ".")
        #expect(cycle.help.contains(async ? "inject it as AsyncProvider<" : "inject it as Lazy<"), "\(cycle)")
    }

    /// A `.cached` service is there to be replaced by `reset(.cached)`, which a singleton holding it never sees:
    /// DI-CAPTIVE says so, and each way out it gives clears it.
    @Test func aSingletonKeepingACachedServiceIsCaptive() throws {
        final class Flags: Sendable {}
        final class Banner: Sendable {
            let flags: Flags
            init(flags: Flags) { self.flags = flags }
        }
        final class LiveBanner: Sendable {
            let flags: Provider<Flags>
            init(flags: Provider<Flags>) { self.flags = flags }
        }
        let app = Container(name: "app")
        try app.autoregister(Flags.self, scope: .cached, initializer: Flags.init)
        try app.autoregister(Banner.self, scope: .singleton, initializer: Banner.init)
        let finding = try #require(app.validate().findings.first { $0.id == .captive })
        #expect(finding.message == "Banner (singleton) keeps Flags (cached), which reset(.cached) is for replacing: "
            + "after a reset, the singleton instance still holds on to the Flags it was built with.")
        #expect(finding.help == "Give Banner .cached too, so that a reset replaces both, or inject Provider<Flags> "
            + "and resolve Flags when it is needed.")
        // What it warns of.
        let before = try app.resolve(Banner.self).flags
        app.reset(.cached)
        #expect(try app.resolve(Banner.self).flags === before)
        #expect(try app.resolve(Flags.self) !== before)
        // Either way out clears it.
        try app.autoregister(Banner.self, scope: .cached, initializer: Banner.init)
        #expect(app.validate().findings.allSatisfy { $0.id != .captive })
        try app.autoregister(Banner.self, scope: .singleton, initializer: Banner.init)
        try app.autoregister(LiveBanner.self, scope: .singleton, initializer: LiveBanner.init)
        #expect(app.validate().findings.filter { $0.id == .captive }.map(\.service) == ["Banner"])
    }

    @Test func autoregisterWithoutParametersIsNotOpaque() throws {
        let app = Container(name: "app")
        try app.autoregister(Cache.self, scope: .singleton, initializer: Cache.init)
        try app.register(Session.self) { _ in Session() }
        let opaque = try #require(app.validate().findings.first { $0.id == .opaque })
        #expect(opaque.service == "1 registration")
        #expect(opaque.message.contains("Session in app"))
        #expect(!opaque.message.contains("Cache"))
    }

    /// A transient resolves its dependencies from the container that asks for it: with `Session` registered
    /// in two descendants (and not in the root), `Cart` is only missing it when asked from the root.
    /// A transient of an ancestor is built from every container of the subtree, since a container's overrides
    /// may change what it needs; a failure that reads the same from each is one finding, from the container
    /// nearest the validated one, and one that a container's override changes is a finding of its own.
    @Test func aFailureThatReadsTheSameFromEveryContainerIsReportedOnce() throws {
        let app = Container(name: "app")
        try app.register(NotARouter.self, fileID: "App/Router.swift", line: 3) { _ in NotARouter() }
            .implements((any Router).self, fileID: "App/Router.swift", line: 4)
        try app.register(Session.self, fileID: "App/Session.swift", line: 1) { _ in throw BrokenFactory() }
        let checkout = app.child(name: "checkout")
        _ = checkout.child(name: "screen")
        let report = app.validate(instantiating: true)
        #expect(report.findings.filter { $0.id == .alias }.map(\.container) == ["app"], "\(report)")
        #expect(report.findings.filter { $0.id == .build }.map(\.container) == ["app"], "\(report)")
        // An override in checkout fails its own way there: a finding of its own, from checkout (and not again
        // from screen, where it reads the same).
        try checkout.register(Session.self, fileID: "App/Checkout.swift", line: 2) { _ in throw BrokenFactory() }
        let overridden = app.validate(instantiating: true).findings.filter { $0.id == .build }
        #expect(overridden.map(\.container) == ["app", "checkout"], "\(overridden)")
        #expect(overridden.last?.message.contains("App/Checkout.swift:2") == true, "\(overridden)")
    }

    @Test func aTransientIsCheckedFromEveryContainerThatCanAskForIt() throws {
        let root = Container(name: "root")
        let middle = root.child(name: "middle")
        let leaf = middle.child(name: "leaf")
        try root.autoregister(Cart.self, fileID: "App/Cart.swift", line: 1, initializer: Cart.init)
        try middle.autoregister(Session.self, fileID: "App/Middle.swift", line: 1, initializer: Session.init)
        try leaf.autoregister(Session.self, fileID: "App/Leaf.swift", line: 1, initializer: Session.init)
        let report = root.validate()
        #expect(report.errors.map(\.id) == [.missing])
        #expect(report.errors.map(\.container) == ["root"])
        #expect(report.findings.filter { $0.id == .shadow }.map(\.container) == ["leaf"])
        #expect(leaf.validate().errors.isEmpty)
        #expect(middle.validate().errors.isEmpty)
        #expect(leaf.explain(Session.self).description.contains("App/Leaf.swift:1"))
        #expect(middle.explain(Session.self).description.contains("App/Middle.swift:1"))
    }

    /// DI-ASYNC: a synchronous factory (an `autoregister` initializer) that needs a service only an `async`
    /// factory builds — as a parameter, an `Optional`, a `Lazy`, or through an alias — fails on every resolve,
    /// also under `resolveAsync`; validation says so before anything runs, and names the way out.
    @Test func aSynchronousFactoryNeedingAnAsyncOnlyServiceIsAnError() async throws {
        final class Store: Storing { init() async {} }
        final class Direct: Sendable { init(store: Store) {} }
        final class Maybe: Sendable { init(store: Store?) {} }
        final class Deferred: Sendable { init(store: Lazy<Store>) {} }
        final class ThroughAlias: Sendable { init(store: any Storing) {} }
        final class Awaits: Sendable { init(store: AsyncProvider<Store>) {} }
        let app = Container(name: "app")
        try app.registerAsync(Store.self, scope: .singleton, fileID: "App/Store.swift", line: 1) { _ in await Store() }
            .implements((any Storing).self, fileID: "App/Store.swift", line: 2)
        try app.autoregister(Direct.self, fileID: "App/Direct.swift", line: 3, initializer: Direct.init)
        try app.autoregister(Maybe.self, initializer: Maybe.init)
        try app.autoregister(Deferred.self, fileID: "App/Deferred.swift", line: 5, initializer: Deferred.init)
        try app.autoregister(ThroughAlias.self, initializer: ThroughAlias.init)
        try app.autoregister(Awaits.self, initializer: Awaits.init)
        try app.registerAsync(String.self) { r in "\(try await r.resolveAsync(Store.self))" }

        let report = app.validate()
        let async = report.findings.filter { $0.id == .async }
        #expect(async.map(\.service).sorted() == ["Deferred", "Direct", "Maybe", "ThroughAlias"], "\(report)")
        #expect(async.allSatisfy { $0.severity == .error })
        let direct = try #require(async.first { $0.service == "Direct" })
        #expect(direct.message == "Direct needs Store, which only an async factory builds (registerAsync at "
            + "App/Store.swift:1), but Direct's factory is synchronous: every resolve of Direct fails with "
            + "asyncResolutionRequired, also under resolveAsync.")
        #expect(direct.help == "Register Direct with registerAsync and resolve it there with `try await "
            + "r.resolveAsync(Store.self)`, inject AsyncProvider<Store> instead, or give Store a synchronous factory.")
        #expect(direct.path.map(\.description) == ["Direct", "Store"])
        let deferred = try #require(async.first { $0.service == "Deferred" })
        #expect(deferred.message == "Deferred needs Lazy<Store>, but only an async factory builds Store "
            + "(registerAsync at App/Store.swift:1), and a Lazy reads synchronously: injecting it always fails with "
            + "asyncResolutionRequired.")
        #expect(deferred.help.hasPrefix("Inject AsyncProvider<Store> instead"))
        let alias = try #require(async.first { $0.service == "ThroughAlias" })
        #expect(alias.help.contains("inject AsyncProvider<any Storing> instead, or give Store a synchronous factory"))
        #expect(app.graph().text().contains("[DI-ASYNC]"))

        // Each finding holds: resolving the service fails as it says, also with resolveAsync.
        let resolves: [@Sendable () async throws -> Void] = [
            { _ = try await app.resolveAsync(Direct.self) }, { _ = try await app.resolveAsync(Maybe.self) },
            { _ = try await app.resolveAsync(Deferred.self) }, { _ = try await app.resolveAsync(ThroughAlias.self) },
        ]
        for resolve in resolves {
            let error = try await #require(throws: ResolutionError.self) { try await resolve() }
            #expect(error.code == .asyncResolutionRequired)
        }
        _ = try await app.resolveAsync(Awaits.self)
        _ = try await app.resolveAsync(String.self)

        // Building every service finds the same four, and no second finding for any of them.
        let built = app.validate(instantiating: true)
        #expect(built.findings.filter { $0.id == .async }.map(\.service).sorted() == async.map(\.service).sorted(),
                "\(built)")
        #expect(!built.findings.contains { $0.id == .build }, "\(built)")
    }

    /// A `Provider<T>` of an async-only service is found by the static walk (an `AsyncProvider<T>` edge is of a
    /// kind of its own, and is left alone), and building it reports nothing more.
    @Test func aProviderOfAnAsyncOnlyServiceIsFoundStaticallyAndByBuilding() throws {
        final class Store: Storing { init() async {} }
        final class Polls: Sendable { init(store: Provider<Store>) {} }
        final class Syncs: Sendable { init(store: AsyncProvider<Store>) {} }
        let app = Container(name: "app")
        try app.registerAsync(Store.self) { _ in await Store() }
        try app.autoregister(Polls.self, initializer: Polls.init)
        try app.autoregister(Syncs.self, initializer: Syncs.init)
        let found = app.validate().findings.filter { $0.id == .async }
        let finding = try #require(found.first)
        #expect(found.map(\.service) == ["Polls"], "\(found)")
        #expect(finding.message.contains("Polls needs Provider<Store>, but only an async factory builds Store"))
        #expect(finding.message.contains("a Provider resolves synchronously"))
        #expect(finding.help.contains("Inject AsyncProvider<Store> instead"))
        let built = app.validate(instantiating: true).findings.filter { $0.id == .async }
        #expect(built.map(\.service) == ["Polls"], "\(built)")
    }

    /// A `.matching(tag)` service registered below the nearest container with its tag has no place: that container
    /// would build it with a resolver that cannot see the registration, so every resolve fails. `validate()` says so
    /// for the registration and for what needs it, in the resolve error's words; it used to say nothing.
    @Test func aMatchingServiceRegisteredBelowItsTaggedContainerIsReported() throws {
        final class Visit: Sendable {}
        final class Page: Sendable { init(visit: Visit) {} }
        let app = Container(name: "app")
        let request = app.child(name: "request", tags: ["request"])
        let feature = request.child(name: "feature")
        try feature.register(Visit.self, scope: .matching("request"), fileID: "App/Feature.swift", line: 1) { _ in
            Visit()
        }
        try feature.autoregister(Page.self, fileID: "App/Feature.swift", line: 2, initializer: Page.init)
        let problem = "in feature (App/Feature.swift:1), and the nearest container tagged \"request\" is request, an "
            + "ancestor of feature; request would hold the instance and build it with its own resolver, which cannot "
            + "see registrations made in feature."
        let matching = app.validate().findings.filter { $0.id == .matching }
        #expect(matching.map(\.message) == [
            "Visit is registered with .matching(\"request\") \(problem) Every resolve of Visit fails.",
            "Page needs Visit, whose lifetime is matching(\"request\"), but Visit is registered \(problem)",
        ])
        #expect(matching.allSatisfy { $0.severity == .error && $0.help == "Tag feature or a container below it, or "
            + "register Visit in request." })
        let error = try #require(throws: ResolutionError.self) { try feature.resolve(Page.self) }
        #expect(error.message.hasSuffix("Tag feature or a container below it, or register Visit in request."))
        // A container with the tag below the registration gives it a place: asked from there, it resolves.
        let tagged = feature.child(name: "inner request", tags: ["request"])
        _ = try tagged.resolve(Page.self)
        #expect(app.validate().findings.filter { $0.id == .matching }.map(\.service) == ["Visit"])
    }

    /// What a closure factory asks for is seen by building it (`validate(instantiating: true)`) the way the
    /// parameters of `autoregister` are declared: an optional is absent where its target is not registered, not
    /// missing (a false error, which stops a start-up that validates), and a relationship is an edge of its kind to
    /// its target (a `Lazy` of a request service kept by a singleton was not seen at all).
    @Test func aClosureFactorysOptionalsAndRelationshipsAreSeenAsDeclaredOnes() throws {
        final class Visit: Sendable {}
        final class Tracker: Sendable { init(visit: Visit?) {} }
        final class Keeper: Sendable { init(visit: Lazy<Visit>) {} }
        let app = Container(name: "app")
        let request = app.child(name: "request", tags: ["request"])
        try request.register(Visit.self) { _ in Visit() }
        // Asked from app, Visit? is nil: nothing to report.
        try app.register(Tracker.self, scope: .scoped) { resolver in Tracker(visit: try resolver.resolve(Visit?.self)) }
        _ = try app.resolve(Tracker.self)
        _ = try request.resolve(Tracker.self)
        #expect(!app.validate(instantiating: true).hasErrors, "\(app.validate(instantiating: true))")
        // A singleton's Lazy of a request service fails when read: reported, as for autoregister.
        try app.register(Visit.self, name: "current", scope: .matching("request")) { _ in Visit() }
        try app.register(Keeper.self, scope: .singleton) { resolver in
            Keeper(visit: try resolver.resolve(Lazy<Visit>.self, name: "current"))
        }
        let keeper = try request.resolve(Keeper.self)
        _ = keeper
        let matching = app.validate(instantiating: true).findings.filter { $0.id == .matching }
        #expect(matching.map(\.service) == ["Visit \"current\""], "\(matching)")
        #expect(matching.first?.path.first?.description == "Keeper")
    }

    /// A chain deeper than the depth limit is met by every build above the limit, each at another step: one
    /// finding says so, not one per registration (a chain of 4,000 gave 3,801, formatting a 200-step path each).
    @Test func aChainTooDeepIsOneFinding() throws {
        let app = Container(name: "app")
        try app.register(String.self, name: "link 0") { _ in "" }
        for index in 1..<(Container.resolutionDepthLimit + 50) {
            try app.register(String.self, name: "link \(index)") { resolver in
                try resolver.resolve(String.self, name: "link \(index - 1)")
            }
        }
        let cycles = app.validate(instantiating: true).findings.filter { $0.id == .cycle }
        #expect(cycles.count == 1)
        #expect(cycles.first?.message.contains("the dependency chain is too deep") == true)
    }
}
