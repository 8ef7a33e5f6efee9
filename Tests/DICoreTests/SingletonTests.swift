import DICore
import Testing

/// A singleton is held by the registering container, and its dependencies come from the
/// registering container, so a parent's singleton never captures a child's override.
@Suite struct SingletonTests {
    @Test func buildsOncePerRegisteringContainer() throws {
        let app = Container(name: "app")
        let counter = Counter()
        try app.register(ConsoleLogger.self, scope: .singleton) { _ in
            counter.increment()
            return ConsoleLogger()
        }
        let checkout = app.child(name: "checkout")
        let session = app.child(name: "session")
        let fromApp = try app.resolve(ConsoleLogger.self)
        #expect(try checkout.resolve(ConsoleLogger.self) === fromApp)
        #expect(try session.resolve(ConsoleLogger.self) === fromApp)
        #expect(counter.value == 1)
    }

    @Test func eachRegisteringContainerHasItsOwnInstance() throws {
        let app = Container(name: "app")
        let checkout = app.child(name: "checkout")
        try app.register(ConsoleLogger.self, scope: .singleton) { _ in ConsoleLogger(label: "app") }
        try checkout.register(ConsoleLogger.self, scope: .singleton) { _ in ConsoleLogger(label: "checkout") }
        #expect(try app.resolve(ConsoleLogger.self).label == "app")
        #expect(try checkout.resolve(ConsoleLogger.self).label == "checkout")
        #expect(try checkout.resolve(ConsoleLogger.self) !== app.resolve(ConsoleLogger.self))
    }

    enum FirstResolver: String, CaseIterable, Sendable { case parentFirst, childFirst }

    @Test(arguments: FirstResolver.allCases)
    func parentSingletonNeverCapturesChildOverride(order: FirstResolver) throws {
        let app = Container(name: "app")
        try app.register((any Logger).self) { _ in ConsoleLogger(label: "app") }
        try app.register(Database.self, scope: .singleton) { r in Database(logger: try r.resolve((any Logger).self)) }
        let checkout = app.child(name: "checkout")
        try checkout.register((any Logger).self) { _ in ConsoleLogger(label: "checkout") }

        let first: Database
        let second: Database
        switch order {
        case .parentFirst:
            first = try app.resolve(Database.self)
            second = try checkout.resolve(Database.self)
        case .childFirst:
            first = try checkout.resolve(Database.self)
            second = try app.resolve(Database.self)
        }
        #expect(first === second)
        #expect(first.logger.label == "app")
    }

    @Test func childSingletonUsesItsOwnOverrides() throws {
        let app = Container(name: "app")
        try app.register((any Logger).self) { _ in ConsoleLogger(label: "app") }
        let checkout = app.child(name: "checkout")
        try checkout.register((any Logger).self) { _ in ConsoleLogger(label: "checkout") }
        try checkout.register(Database.self, scope: .singleton) { r in
            Database(logger: try r.resolve((any Logger).self))
        }
        #expect(try checkout.resolve(Database.self).logger.label == "checkout")
    }

    @Test func failedSingletonBuildIsRetriedOnTheNextResolve() throws {
        let app = Container(name: "app")
        let counter = Counter()
        try app.register(ConsoleLogger.self, scope: .singleton) { _ in
            counter.increment()
            if counter.value == 1 { throw FactoryError(reason: "first attempt") }
            return ConsoleLogger()
        }
        #expect(throws: ResolutionError.self) { try app.resolve(ConsoleLogger.self) }
        let logger = try app.resolve(ConsoleLogger.self)
        #expect(try app.resolve(ConsoleLogger.self) === logger)
        #expect(counter.value == 2)
    }

    @Test func singletonValueTypesAreSharedToo() throws {
        let app = Container(name: "app")
        let counter = Counter()
        try app.register(Int.self, scope: .singleton) { _ in
            counter.increment()
            return 7
        }
        #expect(try app.resolve(Int.self) == 7)
        #expect(try app.child(name: "c").resolve(Int.self) == 7)
        #expect(counter.value == 1)
    }
}
