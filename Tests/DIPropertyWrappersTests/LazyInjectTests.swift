import DICore
import DIPropertyWrappers
import Testing

private final class Report {
    static let databaseLine = #line + 1
    @LazyInject(name: "primary") var database: Database
    @LazyInject var logger: any Logger
    @LazyInject var cache: Cache?
    @LazyInject var draft: Draft
}

/// Copies share the slot, and the struct is `Sendable` because the services are.
private struct Job: Sendable {
    @LazyInject var database: Database
}

/// Reads a lazy property of itself inside its own factory: a cycle the container must report.
private final class Chicken {
    @LazyInject var egg: Egg
}

private final class Egg {
    let chicken: Chicken
    init(chicken: Chicken) { self.chicken = chicken }
}

/// A request handler's lazy properties, first read by work that outlived the request.
private struct Handler {
    @LazyInject var database: Database
    @WeakLazyInject var weakDatabase: Database?
    @LazyInjected(\.clock) var clock
    @Inject var logger: any Logger
}

@Suite(.timeLimit(.minutes(1))) struct LazyInjectTests {
    /// The lazy wrappers say why their container refused: the owner's container closed before the first read.
    @Test func aFirstReadAfterTheContainerClosedSaysToReadItBeforeTheClose() throws {
        let app = Container(name: "app")
        try app.register(Database.self, scope: .singleton) { _ in Database() }
        try app.register((any Logger).self) { _ in ConsoleLogger() }
        let request = app.child(name: "request")
        let handler = withContainer(request) { Handler() }
        request.close()

        let advice = "request, the container the owner was made in, is closed: a lazy property resolves on its first "
            + "read, so read it before request closes, or inject it with @Inject when the owner is made."
        let errors = [
            try #require(throws: InjectionError.self) { try handler.$database.resolve() },
            try #require(throws: InjectionError.self) { try handler.$weakDatabase.resolve() },
            try #require(throws: InjectionError.self) { try handler.$clock.resolve() },
        ]
        for error in errors {
            #expect(error.message.hasSuffix(advice), "\(error)")
            #expect(error.resolutionError?.code == .containerClosed)
        }
        // Another failure of a lazy read, and the eager wrapper's refusal, keep their own messages.
        let open = withContainer(app.child(name: "open")) { Report() }
        let missing = try #require(throws: InjectionError.self) { try open.$database.resolve() }
        #expect(!missing.message.contains("is closed"), "\(missing)")
        let eager = try #require(throws: InjectionError.self) {
            try Inject<Database>.resolve(name: nil, from: request, fileID: "App/Handler.swift", line: 4)
        }
        #expect(!eager.message.contains("lazy property"), "\(eager)")
    }

    @Test func resolvesOnTheFirstReadThenKeepsTheInstance() throws {
        let (_, checkout) = try makeApp()
        let builds = Counter()
        try checkout.register(Draft.self) { _ in
            builds.increment()
            return Draft()
        }
        let report = withContainer(checkout) { Report() }
        #expect(!report.$draft.isResolved)
        #expect(builds.value == 0)
        let first = report.draft
        #expect(report.$draft.isResolved)
        #expect(report.draft === first)
        #expect(try report.$draft.resolve() === first)
        #expect(builds.value == 1)
    }

    @Test func capturesTheContainerWhenTheOwnerIsCreatedNotAtTheFirstRead() throws {
        let (_, checkout) = try makeApp()
        let report = withContainer(checkout) { Report() }
        let other = Container(name: "other")
        try other.register((any Logger).self) { _ in ConsoleLogger(label: "other") }
        let label = withContainer(other) { report.logger.label }
        #expect(label == "checkout")
        #expect(Report().$logger.container === Container.shared)
    }

    @Test func releasesTheCapturedContainerOnceResolved() throws {
        let (_, checkout) = try makeApp()
        let report = withContainer(checkout) { Report() }
        #expect(report.$database.container === checkout)
        _ = report.database
        #expect(report.$database.container == nil)
    }

    /// The property keeps the container it captured alive until its first read, and no longer: a container
    /// that nothing else holds is freed by that read (and not leaked by the property).
    @Test func aContainerOnlyTheLazyPropertyHoldsIsFreedByItsFirstRead() throws {
        weak var captured: Container?
        let job = try {
            let app = Container(name: "app")
            try app.register(Database.self) { _ in Database() }
            captured = app
            return withContainer(app) { Job() }
        }()
        #expect(captured != nil)
        _ = job.database
        #expect(captured == nil)
        #expect(job.$database.container == nil)
    }

    /// The resolved value lives in the property's slot (a transient, here, that nothing else keeps): it goes
    /// with the owner, no later.
    @Test func theResolvedValueIsReleasedWithItsOwner() throws {
        let (_, checkout) = try makeApp()
        try checkout.register(Draft.self) { _ in Draft() }
        weak var draft: Draft?
        var report: Report? = withContainer(checkout) { Report() }
        draft = report?.draft
        #expect(draft != nil)
        report = nil
        #expect(draft == nil)
    }

    @Test func optionalIsNilWhenNothingIsRegistered() throws {
        let (_, checkout) = try makeApp()
        let report = withContainer(checkout) { Report() }
        #expect(report.cache == nil)
        #expect(report.$cache.isResolved)
    }

    /// A wrapper names its key itself, so the way out of a wrong name is written in the wrapper.
    @Test func aNameTheContainerDoesNotRegisterIsFixedInTheWrapper() throws {
        let app = Container(name: "app")
        try app.register(Database.self) { _ in Database(name: "unnamed") }
        let report = withContainer(app) { Report() }
        let error = try #require(throws: InjectionError.self) { try report.$database.resolve() }
        #expect(error.description.hasSuffix("fix:       write @LazyInject without name: at "
            + "DIPropertyWrappersTests/LazyInjectTests.swift:\(Report.databaseLine)"), "\(error)")
        // A registration that takes runtime arguments is not one a wrapper's name can reach: no such fix.
        let other = Container(name: "other")
        try other.register(Database.self, name: "primary") { (_: any Resolver, name: String) in Database(name: name) }
        let owner = withContainer(other) { Report() }
        let missing = try #require(throws: InjectionError.self) { try owner.$database.resolve() }
        #expect(missing.description.contains("close matches:"), "\(missing)")
        #expect(!missing.description.contains("write @LazyInject"), "\(missing)")
    }

    @Test func throwingAccessorReportsTheDiagnosticAndTheDeclaration() throws {
        let empty = Container(name: "empty")
        let report = withContainer(empty) { Report() }
        let error = try #require(throws: InjectionError.self) { try report.$database.resolve() }
        #expect(error.location == SourceLocation(
            fileID: "DIPropertyWrappersTests/LazyInjectTests.swift", line: Report.databaseLine
        ))
        #expect(error.wrapper == "@LazyInject")
        #expect(error.resolutionError?.code == .notRegistered)
        #expect(error.description.contains(
            "@LazyInject at DIPropertyWrappersTests/LazyInjectTests.swift:\(Report.databaseLine) could not inject "
                + "Database \"primary\" from empty."
        ))
        #expect(error.description.contains("searched:  empty"))
        #expect(!report.$database.isResolved)

        // A later call tries again, from the same captured container.
        try empty.register(Database.self, name: "primary") { _ in Database(name: "late") }
        #expect(try report.$database.resolve().name == "late")
    }

    @Test func copiesShareOneSlot() throws {
        let (app, _) = try makeApp()
        try app.register(Database.self) { _ in Database() }
        let job = withContainer(app) { Job() }
        let copy = job
        #expect(copy.database === job.database)
    }

    @Test func concurrentFirstReadsAllSeeOneInstance() async throws {
        let app = Container(name: "app")
        try app.register(Database.self) { _ in Database() }     // transient: each resolve is a new object
        for _ in 0..<50 {
            let job = withContainer(app) { Job() }
            let ids = await withTaskGroup(of: ObjectIdentifier.self) { group in
                for _ in 0..<8 { group.addTask { ObjectIdentifier(job.database) } }
                return await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
            }
            #expect(ids.count == 1)
            #expect(ids.first == ObjectIdentifier(job.database))
        }
    }

    /// Two first reads at once, the first of which fails (its container closed meanwhile, or its factory threw)
    /// after the second one published: the failed read returns the published value, as every read of a slot
    /// sees one instance, instead of failing beside it.
    @Test(.timeLimit(.minutes(1)))
    func aFirstReadThatFailsAfterAnotherPublishedReturnsThePublishedValue() async throws {
        let app = Container(name: "app")
        let job = withContainer(app) { Job() }
        var second: Database?
        let first = try await raceAFirstReadThatFailsLast(in: app, firstRead: { try job.$database.resolve().name }) {
            second = job.database   // resolves and publishes while the first read waits in its factory
        }
        #expect(first == "second")
        #expect(job.database === second)
    }

    @Test func aCycleThroughALazyPropertyIsReportedNotHung() throws {
        let app = Container(name: "app")
        try app.register(Egg.self) { r in Egg(chicken: try r.resolve(Chicken.self)) }
        try app.register(Chicken.self) { _ in
            let chicken = Chicken()
            _ = try chicken.$egg.resolve()
            return chicken
        }
        // The cycle passes through the wrapper's `InjectionError`, and still comes out as the cycle.
        let error = try #require(throws: ResolutionError.self) { try app.resolve(Chicken.self) }
        #expect(error.code == .circularDependency)
        #expect(error.description.contains("Chicken → Egg → Chicken"))
    }
}
