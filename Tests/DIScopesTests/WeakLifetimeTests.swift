import DICore
import DIScopes
import Testing

@Suite(.timeLimit(.minutes(1))) struct WeakLifetimeTests {
    /// Swinject accepts `.weak` for a value type and quietly builds a new value on every resolve.
    @Test func aValueTypeIsRefusedAtRegistration() throws {
        let app = Container(name: "app")
        let error = try #require(throws: RegistrationError.self) {
            try app.register(Point.self, scope: .weak) { _ in Point() }
        }
        #expect(error.code == .invalidScope)
        #expect(error.container == "app")
        #expect(error.service == "Point")
        #expect(error.description.contains("Point is a struct"))
        #expect(error.description.contains("WeakLifetimeTests.swift"))
        #expect(error.description.contains(".cached"))
        #expect(!app.isRegistered(Point.self))
    }

    @Test func everyKindOfValueTypeIsRefused() throws {
        let app = Container(name: "app")
        enum Mode: Sendable { case on }
        let enumError = try #require(throws: RegistrationError.self) {
            try app.register(Mode.self, scope: .weak) { _ in .on }
        }
        #expect(enumError.description.contains("an enum"))
        let optionalError = try #require(throws: RegistrationError.self) {
            try app.register(AppRouter?.self, scope: .weak) { _ in AppRouter() }
        }
        #expect(optionalError.description.contains("an optional"))
        let intError = try #require(throws: RegistrationError.self) {
            try app.register(Int.self, scope: .weak) { _ in 1 }
        }
        #expect(intError.code == .invalidScope)
        let asyncError = try #require(throws: RegistrationError.self) {
            try app.registerAsync(Point.self, scope: .weak) { _ in Point() }
        }
        #expect(asyncError.code == .invalidScope)
    }

    @Test func aClassBoundExistentialIsSharedWhileHeld() throws {
        let app = Container(name: "app")
        let builds = Counter()
        try app.register((any Router).self, scope: .weak) { _ in
            builds.increment()
            return AppRouter()
        }
        weak var observed: (any Router)?
        do {
            let router = try app.resolve((any Router).self)
            observed = router
            #expect(try app.resolve((any Router).self) === router)
            #expect(try app.child(name: "child").resolve((any Router).self) === router)
        }
        #expect(observed == nil)
        _ = try app.resolve((any Router).self)
        #expect(builds.value == 2)
    }

    @Test func aProtocolThatIsNotClassBoundIsAcceptedAndItsClassInstancesShared() throws {
        let app = Container(name: "app")
        try app.register((any Theme).self, scope: .weak) { _ in DarkTheme() }
        let theme = try app.resolve((any Theme).self) as? DarkTheme
        #expect(theme != nil)
        #expect(try app.resolve((any Theme).self) as? DarkTheme === theme)
    }

    @Test func aValueBuiltBehindAProtocolFailsTheResolveWithAClearError() throws {
        let app = Container(name: "app")
        try app.register((any Theme).self, scope: .weak) { _ in PlainTheme() }
        let error = try #require(throws: ResolutionError.self) { try app.resolve((any Theme).self) }
        #expect(error.code == .scopeUnavailable)
        #expect(error.description.contains("PlainTheme"))
        #expect(error.description.contains("struct"))
        #expect(error.description.contains("registered with .weak in app"))
    }

    @Test func theContainerDoesNotKeepItAlive() throws {
        let tree = try Tree(widget: .weak)
        weak var observed: Widget?
        do { observed = try tree.feature.resolve(Widget.self) }
        #expect(observed == nil)
        #expect(try tree.feature.resolve(Widget.self).serial == 2)
    }

    @Test func aHeldInstanceIsReturnedToEveryoneUntilItIsReleased() throws {
        let tree = try Tree(widget: .weak)
        var held: Widget? = try tree.app.resolve(Widget.self)
        for container in [tree.app, tree.feature, tree.screen] {
            #expect(try container.resolve(Widget.self) === held)
        }
        #expect(tree.builds.value == 1)
        held = nil
        #expect(try tree.screen.resolve(Widget.self).serial == 2)
    }

    @Test func asyncFactoriesAreWeakToo() async throws {
        let app = Container(name: "app")
        let builds = Counter()
        try app.registerAsync(AppRouter.self, scope: .weak) { _ in
            builds.increment()
            return AppRouter()
        }
        let router = try await app.resolveAsync(AppRouter.self)
        #expect(try await app.resolveAsync(AppRouter.self) === router)
        #expect(builds.value == 1)
    }

    @Test func twoNamesOfOneTypeNeverShareAnInstance() throws {
        let app = Container(name: "app")
        try app.register(AppRouter.self, name: "main", scope: .weak) { _ in AppRouter() }
        try app.register(AppRouter.self, name: "modal", scope: .weak) { _ in AppRouter() }
        let main = try app.resolve(AppRouter.self, name: "main")
        let modal = try app.resolve(AppRouter.self, name: "modal")
        #expect(main !== modal)
        #expect(try app.resolve(AppRouter.self, name: "main") === main)
    }
}
