import DICore
import Testing

private protocol Clock: Sendable {
    var now: Int { get }
}

private final class SystemClock: Clock {
    let now = 1
}

private final class Cache: Sendable {
    let label: String
    init(label: String = "cache") { self.label = label }
}

/// A lifetime that refuses every registration, to see a refused component refuse its whole builder.
private struct RefusingLifetime: LifetimeStrategy {
    var keepsInstances: Bool { true }

    func validate(_ registration: Registration) throws(RegistrationError) {
        throw RegistrationError(
            code: .invalidScope,
            service: registration.displayName,
            container: "",
            location: registration.location,
            message: "refused"
        )
    }

    func placement(
        for registration: Registration,
        registeredIn: Container,
        requestedFrom: Container,
        resolution: ResolutionScope
    ) throws -> LifetimePlacement {
        .build(dependencies: Unsafe.Unowned(registeredIn))
    }
}

/// A reusable bundle of registrations, written as a component of its own.
private struct ClockAndCache: RegistrationComponent {
    var label: String

    var registrations: RegistrationGroup {
        Singleton((any Clock).self) { _ in SystemClock() }
        Register(Cache.self, scope: .singleton) { [label] _ in Cache(label: label) }
    }
}

@Suite struct RegistrationBuilderTests {
    @Test func oneTryRegistersEveryComponentWithItsLifetime() throws {
        let app = Container(name: "app")
        try app.register {
            Singleton((any Clock).self) { _ in SystemClock() }
            Transient(Formatter.self) { _ in Formatter() }
            Register(Cache.self, scope: .singleton) { _ in Cache() }
            Register(ConsoleLogger.self) { _ in ConsoleLogger() }
            Register(Formatter.self, name: "not Sendable") { _ in Formatter() }
        }

        let clock = try app.resolve((any Clock).self)
        #expect(try app.resolve((any Clock).self) as AnyObject === clock as AnyObject)
        #expect(try app.resolve(Formatter.self) !== app.resolve(Formatter.self))
        #expect(try app.resolve(Cache.self) === app.resolve(Cache.self))
        #expect(try app.resolve(ConsoleLogger.self) !== app.resolve(ConsoleLogger.self))
        let formatter = try app.resolve(Formatter.self, name: "not Sendable")
        #expect(try app.resolve(Formatter.self, name: "not Sendable") !== formatter)
    }

    @Test func namesAndDependenciesWorkAsWithRegister() throws {
        let app = Container(name: "app")
        try app.register {
            Singleton((any Logger).self, name: "primary") { _ in ConsoleLogger(label: "primary") }
            Singleton(Database.self) { r in Database(logger: try r.resolve((any Logger).self, name: "primary")) }
        }
        #expect(try app.resolve(Database.self).logger.label == "primary")
        #expect(!app.isRegistered((any Logger).self, name: nil))
    }

    @Test(arguments: [false, true])
    func ifElseChoosesOneBranch(debug: Bool) throws {
        let app = Container(name: "app")
        try app.register {
            if debug {
                Singleton((any Logger).self) { _ in ConsoleLogger(label: "verbose") }
            } else {
                Singleton((any Logger).self) { _ in ConsoleLogger(label: "quiet") }
            }
            if debug {
                Transient(Formatter.self) { _ in Formatter() }
            }
        }
        #expect(try app.resolve((any Logger).self).label == (debug ? "verbose" : "quiet"))
        #expect(app.isRegistered(Formatter.self) == debug)
    }

    @Test func forLoopRegistersEachIteration() throws {
        let app = Container(name: "app")
        let regions = ["eu", "us", "ap"]
        try app.register {
            for (index, region) in regions.enumerated() {
                Singleton(Int.self, name: region) { _ in index }
            }
        }
        for (index, region) in regions.enumerated() {
            #expect(try app.resolve(Int.self, name: region) == index)
        }
    }

    @Test func anEmptyBuilderRegistersNothing() throws {
        let app = Container(name: "app")
        let enabled = false
        try app.register {
            if enabled { Transient(Formatter.self) { _ in Formatter() } }
        }
        #expect(!app.isRegistered(Formatter.self))
    }

    @Test func aConflictRefusesTheWholeBuilder() throws {
        let app = Container(name: "app")
        try app.register(Int.self, overridable: false) { _ in 42 }
        let error = try #require(throws: RegistrationError.self) {
            try app.register {
                Singleton(String.self) { _ in "applied?" }
                Transient(Int.self) { _ in 0 }
                Transient(Formatter.self) { _ in Formatter() }
            }
        }
        #expect(error.code == .alreadyRegistered)
        #expect(error.service == "Int")
        #expect(!app.isRegistered(String.self))
        #expect(!app.isRegistered(Formatter.self))
        #expect(try app.resolve(Int.self) == 42)
    }

    @Test func aConflictBetweenTwoComponentsOfOneBuilderRefusesBoth() throws {
        let app = Container(name: "app")
        let error = try #require(throws: RegistrationError.self) {
            try app.register {
                Singleton(String.self, overridable: false) { _ in "first" }
                Singleton(Double.self) { _ in 1.5 }
                Transient(String.self) { _ in "second" }
            }
        }
        #expect(error.code == .alreadyRegistered)
        #expect(!app.isRegistered(String.self))
        #expect(!app.isRegistered(Double.self))
        // The message says the first one was not registered either, rather than "already registered".
        #expect(error.message.hasPrefix("String is registered twice in one register call on app: at "))
        #expect(error.message.contains("with overridable: false, and at "))
        #expect(error.message.contains("which cannot replace it. Nothing of that call was registered."))
        #expect(!error.message.contains("already registered"))
    }

    @Test func aLaterFinalComponentOfOneBuilderSaysItMustBeFirst() throws {
        let app = Container(name: "app")
        let error = try #require(throws: RegistrationError.self) {
            try app.register {
                Transient(String.self) { _ in "first" }
                Singleton(String.self, overridable: false) { _ in "second" }
            }
        }
        #expect(error.message.contains("with overridable: false, which must be the first for its key. Nothing of "
            + "that call was registered."))
        #expect(!app.isRegistered(String.self))
        // Without overridable: false, the later one replaces the earlier, as two register calls would.
        try app.register {
            Transient(String.self) { _ in "first" }
            Transient(String.self) { _ in "second" }
        }
        #expect(try app.resolve(String.self) == "second")
    }

    @Test func aComponentCannotShadowANonOverridableAncestorRegistration() throws {
        let app = Container(name: "app")
        try app.register(Int.self, overridable: false) { _ in 42 }
        let child = app.child(name: "child")
        #expect(throws: RegistrationError.self) {
            try child.register {
                Transient(String.self) { _ in "s" }
                Transient(Int.self) { _ in 0 }
            }
        }
        #expect(!child.isRegistered(String.self))
        #expect(try child.resolve(Int.self) == 42)
    }

    @Test func aRefusedLifetimeRefusesTheWholeBuilder() throws {
        let app = Container(name: "app")
        let refusing = Scope(name: "refusing", lifetime: RefusingLifetime())
        let error = try #require(throws: RegistrationError.self) {
            try app.register {
                Singleton(String.self) { _ in "s" }
                Register(Cache.self, scope: refusing) { _ in Cache() }
            }
        }
        #expect(error.code == .invalidScope)
        #expect(!app.isRegistered(String.self))
    }

    @Test func laterComponentsReplaceEarlierOnesOfTheSameKey() throws {
        let app = Container(name: "app")
        try app.register {
            Transient(String.self) { _ in "first" }
            Transient(String.self) { _ in "second" }
        }
        #expect(try app.resolve(String.self) == "second")
    }

    @Test func eachComponentRecordsWhereItWasWritten() throws {
        let app = Container(name: "app")
        try app.register(Int.self, overridable: false) { _ in 42 }
        // Outside `#require`: inside a macro's closure, `#line` defaults report the macro's line.
        var refused: RegistrationError?
        let line = #line + 3
        do {
            try app.register {
                Transient(Int.self) { _ in 0 }
            }
        } catch {
            refused = error
        }
        let error = try #require(refused)
        #expect(error.location.line == line)
        #expect(error.location.fileID.hasSuffix("RegistrationBuilderTests.swift"))
        #expect(error.message.contains("RegistrationBuilderTests.swift:\(line)"))
    }

    @Test func aliasesShareTheSingletonAndApplyWithTheBuilder() throws {
        let app = Container(name: "app")
        try app.register {
            Singleton(RouterImpl.self) { _ in RouterImpl() }
                .implements((any Router).self)
                .implements((any DeeplinkHandler).self, name: "links")
        }
        let router = try app.resolve(RouterImpl.self)
        #expect(try app.resolve((any Router).self) === router)
        #expect(try app.resolve((any DeeplinkHandler).self, name: "links") === router)
        #expect(!app.isRegistered((any DeeplinkHandler).self))
    }

    @Test func aRefusedAliasRefusesItsTarget() throws {
        let app = Container(name: "app")
        try app.register((any Router).self, overridable: false) { _ in RouterImpl() }
        #expect(throws: RegistrationError.self) {
            try app.register {
                Singleton(RouterImpl.self) { _ in RouterImpl() }.implements((any Router).self)
            }
        }
        #expect(!app.isRegistered(RouterImpl.self))
    }

    @Test func oneComponentAppliedToTwoContainersGivesEachItsOwnSingleton() throws {
        let first = Container(name: "first")
        let second = Container(name: "second")
        let stack = ClockAndCache(label: "shared")
        try first.register { stack }
        try second.register { stack }
        let cache = try first.resolve(Cache.self)
        #expect(cache.label == "shared")
        #expect(try first.resolve(Cache.self) === cache)
        #expect(try second.resolve(Cache.self) !== cache)
    }

    @Test func groupsComposeFromFunctions() throws {
        @RegistrationBuilder func logging(verbose: Bool) -> RegistrationGroup {
            Singleton((any Logger).self) { _ in ConsoleLogger(label: verbose ? "verbose" : "quiet") }
            if verbose {
                Transient(Formatter.self) { _ in Formatter() }
            }
        }
        let app = Container(name: "app")
        try app.register {
            logging(verbose: true)
            ClockAndCache(label: "c")
        }
        #expect(try app.resolve((any Logger).self).label == "verbose")
        #expect(app.isRegistered(Formatter.self))
        #expect(try app.resolve((any Clock).self).now == 1)
    }

    @Test func aClosedContainerRefusesTheBuilder() throws {
        let app = Container(name: "app")
        app.close()
        let error = try #require(throws: RegistrationError.self) {
            try app.register { Transient(String.self) { _ in "s" } }
        }
        #expect(error.code == .containerClosed)
    }
}
