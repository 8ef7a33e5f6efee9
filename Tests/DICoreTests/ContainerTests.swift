import DICore
import Testing

@Suite struct ContainerTests {
    @Test func childKnowsItsParentAndName() {
        let app = Container(name: "app")
        let checkout = app.child(name: "checkout")
        #expect(checkout.parent === app)
        #expect(checkout.name == "checkout")
        #expect(app.parent == nil)
    }

    @Test func resolutionFallsThroughToAncestors() throws {
        let app = Container(name: "app")
        try app.register(Int.self) { _ in 42 }
        let grandchild = app.child(name: "feature").child(name: "screen")
        #expect(try grandchild.resolve(Int.self) == 42)
    }

    @Test func childShadowsParentForItselfAndDescendantsOnly() throws {
        let app = Container(name: "app")
        try app.register(String.self) { _ in "app" }
        let checkout = app.child(name: "checkout")
        let payment = checkout.child(name: "payment")
        let session = app.child(name: "session")
        try checkout.register(String.self) { _ in "checkout" }

        #expect(try app.resolve(String.self) == "app")
        #expect(try checkout.resolve(String.self) == "checkout")
        #expect(try payment.resolve(String.self) == "checkout")
        #expect(try session.resolve(String.self) == "app")
    }

    @Test func siblingsNeverSeeEachOther() throws {
        let app = Container(name: "app")
        let checkout = app.child(name: "checkout")
        let session = app.child(name: "session")
        try checkout.register(Double.self) { _ in 1.5 }
        let error = try #require(throws: ResolutionError.self) { try session.resolve(Double.self) }
        #expect(error.code == .notRegistered)
        #expect(!app.isRegistered(Double.self, name: nil))
    }

    @Test func registeringAgainReplacesTheRegistration() throws {
        let app = Container(name: "app")
        try app.register(String.self) { _ in "first" }
        #expect(try app.resolve(String.self) == "first")
        try app.register(String.self) { _ in "second" }
        #expect(try app.resolve(String.self) == "second")
    }

    @Test func reRegisteringDropsTheBuiltSingleton() throws {
        let app = Container(name: "app")
        try app.register(ConsoleLogger.self, scope: .singleton) { _ in ConsoleLogger(label: "old") }
        let old = try app.resolve(ConsoleLogger.self)
        try app.register(ConsoleLogger.self, scope: .singleton) { _ in ConsoleLogger(label: "new") }
        let new = try app.resolve(ConsoleLogger.self)
        #expect(old !== new)
        #expect(new.label == "new")
        #expect(try app.resolve(ConsoleLogger.self) === new)
    }

    @Test func nonOverridableRegistrationRefusesLaterOnesAndKeepsWorking() throws {
        let app = Container(name: "app")
        try app.register(Int.self, overridable: false) { _ in 42 }
        let error = try #require(throws: RegistrationError.self) {
            try app.register(Int.self) { _ in 0 }
        }
        #expect(error.code == .alreadyRegistered)
        #expect(error.description.contains("overridable: false"))
        #expect(error.existing != nil)
        #expect(try app.resolve(Int.self) == 42)
    }

    @Test func nonOverridableOverAnExistingKeyThrows() throws {
        let app = Container(name: "app")
        try app.register(Int.self) { _ in 1 }
        let error = try #require(throws: RegistrationError.self) {
            try app.register(Int.self, overridable: false) { _ in 2 }
        }
        #expect(error.code == .alreadyRegistered)
        #expect(try app.resolve(Int.self) == 1)
    }

    @Test func childCannotShadowANonOverridableAncestorRegistration() throws {
        let app = Container(name: "app")
        try app.register(Int.self, overridable: false) { _ in 42 }
        let child = app.child(name: "child")
        #expect(throws: RegistrationError.self) { try child.register(Int.self) { _ in 0 } }
        #expect(try child.resolve(Int.self) == 42)
    }

    /// A container skips ancestors that never held a non-overridable registration; one added later, or by an
    /// assembly (all at once), two levels up, must still be seen by a grandchild made before it.
    @Test(arguments: [false, true])
    func grandchildCannotShadowANonOverridableRegistrationAddedLater(byAssembly: Bool) throws {
        let app = Container(name: "app")
        let feature = app.child(name: "feature")
        let request = feature.child(name: "request")
        try request.register(String.self) { _ in "before" }
        if byAssembly {
            try app.apply(FinalIntAssembly())
        } else {
            try app.register(Int.self, overridable: false) { _ in 42 }
        }
        let error = try #require(throws: RegistrationError.self) { try request.register(Int.self) { _ in 0 } }
        #expect(error.code == .alreadyRegistered)
        #expect(error.description.contains("overridable: false"))
        #expect(try request.resolve(Int.self) == 42)
        #expect(try request.resolve(String.self) == "before")
        // Other keys are still free to shadow.
        try request.register(String.self) { _ in "after" }
        #expect(try request.resolve(String.self) == "after")
    }

    @Test func namedAndUnnamedNeverSatisfyEachOther() throws {
        let app = Container(name: "app")
        try app.register(String.self, name: "greeting") { _ in "hello" }
        try app.register(Int.self) { _ in 1 }
        #expect(throws: ResolutionError.self) { try app.resolve(String.self) }
        #expect(throws: ResolutionError.self) { try app.resolve(Int.self, name: "one") }
        #expect(try app.resolve(String.self, name: "greeting") == "hello")
        #expect(app.isRegistered(String.self, name: "greeting"))
        #expect(!app.isRegistered(String.self, name: nil))
    }

    @Test func typeInferredResolve() throws {
        let app = Container(name: "app")
        try app.register((any Logger).self) { _ in ConsoleLogger() }
        let logger: any Logger = try app.resolve()
        #expect(logger.label == "console")
    }

    @Test func resolveIfRegisteredIsNilOnlyWhenNothingIsRegistered() throws {
        let app = Container(name: "app")
        #expect(try app.resolveIfRegistered(String.self) == nil)
        try app.register(String.self) { _ in throw FactoryError(reason: "boom") }
        let error = try #require(throws: ResolutionError.self) { try app.resolveIfRegistered(String.self) }
        #expect(error.code == .factoryFailed)
        #expect((error.underlying as? FactoryError) == FactoryError(reason: "boom"))
    }

    @Test func optionalRequestFallsBackToNilOnlyWhenNothingIsRegistered() throws {
        let app = Container(name: "app")
        #expect(try app.resolve(Optional<String>.self) == nil)
        try app.register(String.self) { _ in "here" }
        #expect(try app.resolve(Optional<String>.self) == "here")
    }

    @Test func resolveAsConcreteTypeCastsOrThrowsTypeMismatch() throws {
        let app = Container(name: "app")
        try app.register((any Logger).self, fileID: "App/Setup.swift", line: 4) { _ in ConsoleLogger(label: "c") }
        let concrete = try app.resolve((any Logger).self, as: ConsoleLogger.self)
        #expect(concrete.label == "c")
        let error = try #require(throws: ResolutionError.self) {
            try app.resolve((any Logger).self, as: RouterImpl.self)
        }
        #expect(error.code == .typeMismatch)
        // It names the registration that built the instance, and the two ways out.
        #expect(error.message.hasSuffix("The registration at App/Setup.swift:4 built a ConsoleLogger, not a "
            + "RouterImpl. To get a RouterImpl, register one for it (in a test: .override((any Logger).self) { _ in "
            + "… }); otherwise ask for ConsoleLogger."), "\(error)")
        #expect(error.path.last?.location?.description == "App/Setup.swift:4", "\(error)")
    }

    @Test func resolveRequiredReturnsTheService() throws {
        let app = Container(name: "app")
        try app.register((any Logger).self) { _ in ConsoleLogger(label: "req") }
        #expect(app.resolveRequired((any Logger).self).label == "req")
        #expect(app.resolveRequired((any Logger).self, as: ConsoleLogger.self).label == "req")
    }

    @Test func nonSendableServicesRegisterAsTransients() throws {
        let app = Container(name: "app")
        try app.register(Formatter.self) { _ in Formatter() }
        let first = try app.resolve(Formatter.self)
        let second = try app.resolve(Formatter.self)
        #expect(first !== second)
    }

    @Test func transientBuildsEveryTimeWithDependenciesFromTheAskingContainer() throws {
        let app = Container(name: "app")
        try app.register((any Logger).self) { _ in ConsoleLogger(label: "app") }
        try app.register(Database.self) { r in Database(logger: try r.resolve((any Logger).self)) }
        let child = app.child(name: "child")
        try child.register((any Logger).self) { _ in ConsoleLogger(label: "child") }
        #expect(try app.resolve(Database.self) !== app.resolve(Database.self))
        #expect(try child.resolve(Database.self).logger.label == "child")
        #expect(try app.resolve(Database.self).logger.label == "app")
    }

    @Test func manyRegistrationsStayResolvableWhileTablesArePublished() throws {
        let app = Container(name: "app")
        for index in 0..<2_000 {
            try app.register(Int.self, name: "n\(index)") { _ in index }
            if index % 7 == 0 { #expect(try app.resolve(Int.self, name: "n\(index / 2)") == index / 2) }
        }
        for index in stride(from: 0, to: 2_000, by: 13) {
            #expect(try app.resolve(Int.self, name: "n\(index)") == index)
        }
    }
}

/// Registers `Int` with `overridable: false`, through an assembly (which adds its registrations all at once).
private struct FinalIntAssembly: Assembly {
    func assemble(into container: Container) throws {
        try container.register(Int.self, overridable: false) { _ in 42 }
    }
}
