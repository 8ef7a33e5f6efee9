import DICore
import DITestSupport
import Foundation
import Synchronization
import Testing

/// What the assemblies of one test did, in order, from any thread.
private final class AssemblyLog: Sendable {
    private let lines = Lock<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

private struct AssemblyFailure: Error, Equatable {
    let reason: String
}

private struct LoggerAssembly: Assembly {
    let log: AssemblyLog

    func assemble(into container: Container) throws {
        log.append("LoggerAssembly.assemble")
        try container.register((any Logger).self, scope: .singleton) { _ in ConsoleLogger(label: "assembled") }
    }

    func loaded(resolver: any Resolver) throws {
        // Database comes from the assembly applied after this one.
        let database = try resolver.resolve(Database.self, name: nil)
        log.append("LoggerAssembly.loaded \(database.logger.label)")
    }
}

private struct DatabaseAssembly: Assembly {
    let log: AssemblyLog

    func assemble(into container: Container) throws {
        log.append("DatabaseAssembly.assemble")
        try container.register(Database.self, scope: .singleton) { r in
            Database(logger: try r.resolve((any Logger).self))
        }
    }

    func loaded(resolver: any Resolver) throws {
        log.append("DatabaseAssembly.loaded")
    }
}

/// Registers a few things, then throws.
private struct FailingAssembly: Assembly {
    let log: AssemblyLog

    func assemble(into container: Container) throws {
        log.append("FailingAssembly.assemble")
        try container.register(String.self) { _ in "staged" }
        throw AssemblyFailure(reason: "no configuration")
    }

    func loaded(resolver: any Resolver) throws {
        log.append("FailingAssembly.loaded")
    }
}

private struct FailingLoadAssembly: Assembly {
    let log: AssemblyLog

    func assemble(into container: Container) throws {
        try container.register(Double.self) { _ in 1.5 }
    }

    func loaded(resolver: any Resolver) throws {
        log.append("FailingLoadAssembly.loaded")
        throw AssemblyFailure(reason: "warm-up failed")
    }
}

/// Closes the container it is applied to while it assembles, or in its `loaded` hook, and goes on.
private struct ClosingAssembly: Assembly {
    let log: AssemblyLog
    let container: Container
    let closesIn: AssemblyTests.Step

    func assemble(into container: Container) throws {
        log.append("ClosingAssembly.assemble")
        try container.register(String.self) { _ in "staged" }
        if closesIn == .assemble { container.close() }
        try container.register(Double.self) { _ in 1.5 }
    }

    func loaded(resolver: any Resolver) throws {
        if closesIn == .loaded { container.close() }
        log.append("ClosingAssembly.loaded")
        _ = try resolver.resolve(String.self, name: nil)
    }
}

/// Disposable, numbered: built by `WarmingAssembly`'s `loaded` hook.
private final class WarmedUp: Disposable, Sendable {
    let serial: Int
    let log: Log
    init(serial: Int, log: Log) {
        self.serial = serial
        self.log = log
    }
    func dispose() { log.append("dispose \(serial)") }
}

/// Registers a `WarmedUp` singleton and builds it in its `loaded` hook.
private struct WarmingAssembly: Assembly {
    let log: Log
    let builds: Counter

    func assemble(into container: Container) throws {
        let (log, builds) = (log, builds)
        try container.register(WarmedUp.self, scope: .singleton) { _ in WarmedUp(serial: builds.increment(), log: log) }
    }

    func loaded(resolver: any Resolver) throws {
        _ = try resolver.resolve(WarmedUp.self, name: nil)
    }
}

/// Registers `String`, then `Int`, which the test registered first with `overridable: false`.
private struct ConflictingAssembly: Assembly {
    let log: AssemblyLog

    func assemble(into container: Container) throws {
        try container.register(String.self) { _ in "staged" }
        do {
            try container.register(Int.self) { _ in 0 }
        } catch {
            log.append("register threw \(error.code)")
            throw error
        }
    }
}

/// Records what the container shows while the assembly runs.
private struct ProbingAssembly: Assembly {
    let log: AssemblyLog

    func assemble(into container: Container) throws {
        try container.register(Float.self) { _ in 2 }
        log.append("assemble sees Float: \(container.isRegistered(Float.self))")
    }

    func loaded(resolver: any Resolver) throws {
        log.append("loaded sees Float: \(resolver.isRegistered(Float.self))")
    }
}

/// A factory that resolves through the container it captured during `assemble`.
private struct CapturingAssembly: Assembly {
    func assemble(into container: Container) throws {
        try container.register(Int.self) { _ in 21 }
        try container.register(String.self) { _ in String(try container.resolve(Int.self) * 2) }
    }
}

/// Registers through a builder and an alias, the other ways of registering.
private struct BuilderAssembly: Assembly {
    func assemble(into container: Container) throws {
        try container.register {
            Singleton(ConsoleLogger.self) { _ in ConsoleLogger(label: "builder") }
            Transient(Formatter.self) { _ in Formatter() }
        }
        try container.register(RouterImpl.self, scope: .singleton) { _ in RouterImpl() }
            .implements((any Router).self)
    }
}

private struct NestingAssembly: Assembly {
    let log: AssemblyLog
    let inner: [any Assembly]
    var catchInnerFailure = false

    func assemble(into container: Container) throws {
        log.append("NestingAssembly.assemble")
        try container.register(UInt.self) { _ in 1 }
        do {
            try container.apply(inner)
        } catch {
            guard catchInnerFailure else { throw error }
            log.append("inner failed: \(error.code)")
        }
    }

    func loaded(resolver: any Resolver) throws {
        log.append("NestingAssembly.loaded")
    }
}

/// Registers into a child it creates: that takes effect at once, outside the batch.
private struct ChildAssembly: Assembly {
    let child: Container

    func assemble(into container: Container) throws {
        try child.register(String.self) { _ in "child" }
        throw AssemblyFailure(reason: "after the child")
    }
}

private final class RegistrationLog: ContainerBehavior {
    let log = AssemblyLog()

    func didRegister(_ info: RegistrationInfo, in container: Container) throws {
        let visible = container.isRegistered((any Logger).self) && container.isRegistered(Database.self)
        log.append("\(info.displayName) all visible: \(visible)")
    }
}

@Suite struct AssemblyTests {
    @Test func everyAssembleRunsBeforeAnyLoaded() throws {
        let log = AssemblyLog()
        let app = Container(name: "app")
        try app.apply(LoggerAssembly(log: log), DatabaseAssembly(log: log))
        #expect(log.all == [
            "LoggerAssembly.assemble",
            "DatabaseAssembly.assemble",
            "LoggerAssembly.loaded assembled",
            "DatabaseAssembly.loaded",
        ])
        #expect(try app.resolve(Database.self) === app.resolve(Database.self))
    }

    @Test func anArrayOfAssembliesAppliesTheSameWay() throws {
        let log = AssemblyLog()
        let app = Container(name: "app")
        let assemblies: [any Assembly] = [DatabaseAssembly(log: log), LoggerAssembly(log: log)]
        try app.apply(assemblies)
        #expect(try app.resolve(Database.self).logger.label == "assembled")
        try app.apply([])
    }

    @Test func aFailingAssembleAppliesNothingAndNamesTheAssembly() throws {
        let log = AssemblyLog()
        let app = Container(name: "app")
        let error = try #require(throws: RegistrationError.self) {
            try app.apply(LoggerAssembly(log: log), FailingAssembly(log: log), DatabaseAssembly(log: log))
        }
        #expect(error.code == .assemblyFailed)
        #expect((error.underlying as? AssemblyFailure) == AssemblyFailure(reason: "no configuration"))
        #expect(error.service == "FailingAssembly")
        #expect(error.container == "app")
        #expect(error.message.contains("FailingAssembly.assemble(into:) threw"))
        #expect(error.message.contains("Nothing was applied"))
        #expect(error.location.fileID.hasSuffix("AssemblyTests.swift"))
        #expect(!app.isRegistered((any Logger).self))
        #expect(!app.isRegistered(String.self))
        #expect(!app.isRegistered(Database.self))
        #expect(log.all == ["LoggerAssembly.assemble", "FailingAssembly.assemble"])
    }

    @Test func aConflictThrowsFromTheRegisterCallAndAppliesNothing() throws {
        let log = AssemblyLog()
        let app = Container(name: "app")
        try app.register(Int.self, overridable: false) { _ in 42 }
        let error = try #require(throws: RegistrationError.self) {
            try app.apply(ConflictingAssembly(log: log))
        }
        #expect(log.all == ["register threw alreadyRegistered"])
        #expect(error.code == .assemblyFailed)
        #expect((error.underlying as? RegistrationError)?.code == .alreadyRegistered)
        #expect(error.service == "Int")
        #expect(error.existing != nil)
        #expect(error.message.contains("ConflictingAssembly"))
        #expect(error.message.contains("overridable: false"))
        #expect(!app.isRegistered(String.self))
        #expect(try app.resolve(Int.self) == 42)
    }

    @Test func aConflictBetweenTwoAssembliesIsCaughtAsTheyAssemble() throws {
        struct NonOverridableInt: Assembly {
            func assemble(into container: Container) throws {
                try container.register(Int.self, overridable: false) { _ in 1 }
            }
        }
        let log = AssemblyLog()
        let app = Container(name: "app")
        let error = try #require(throws: RegistrationError.self) {
            try app.apply(NonOverridableInt(), ConflictingAssembly(log: log))
        }
        #expect((error.underlying as? RegistrationError)?.code == .alreadyRegistered)
        #expect(!app.isRegistered(Int.self))
        #expect(!app.isRegistered(String.self))
    }

    @Test func aFailingLoadedKeepsTheRegistrationsAndStopsLaterHooks() throws {
        let log = AssemblyLog()
        let app = Container(name: "app")
        let error = try #require(throws: RegistrationError.self) {
            try app.apply(FailingLoadAssembly(log: log), DatabaseAssembly(log: log), LoggerAssembly(log: log))
        }
        #expect(error.code == .assemblyFailed)
        #expect((error.underlying as? AssemblyFailure) == AssemblyFailure(reason: "warm-up failed"))
        #expect(error.message.contains("FailingLoadAssembly.loaded(resolver:) threw"))
        #expect(error.message.contains("DatabaseAssembly, LoggerAssembly did not run"))
        #expect(try app.resolve(Double.self) == 1.5)
        #expect(try app.resolve(Database.self).logger.label == "assembled")
        #expect(!log.all.contains("DatabaseAssembly.loaded"))
    }

    @Test func registrationsAppearOnlyOnceEveryAssemblyAssembled() throws {
        let log = AssemblyLog()
        let app = Container(name: "app")
        try app.apply(ProbingAssembly(log: log))
        #expect(log.all == ["assemble sees Float: false", "loaded sees Float: true"])
    }

    @Test func factoriesCaptureTheContainerTheyWereAssembledInto() throws {
        let app = Container(name: "app")
        try app.apply(CapturingAssembly())
        #expect(try app.resolve(String.self) == "42")
    }

    @Test func buildersAndAliasesInsideAnAssemblyAreHeldBackToo() throws {
        let log = AssemblyLog()
        let app = Container(name: "app")
        #expect(throws: RegistrationError.self) {
            try app.apply(BuilderAssembly(), FailingAssembly(log: log))
        }
        #expect(!app.isRegistered(ConsoleLogger.self))
        #expect(!app.isRegistered((any Router).self))

        try app.apply(BuilderAssembly())
        #expect(try app.resolve(ConsoleLogger.self).label == "builder")
        #expect(try app.resolve((any Router).self) === app.resolve(RouterImpl.self))
    }

    @Test func aNestedApplyJoinsTheOuterOne() throws {
        let log = AssemblyLog()
        let app = Container(name: "app")
        try app.apply(NestingAssembly(log: log, inner: [DatabaseAssembly(log: log)]), LoggerAssembly(log: log))
        #expect(log.all == [
            "NestingAssembly.assemble",
            "DatabaseAssembly.assemble",
            "LoggerAssembly.assemble",
            "NestingAssembly.loaded",
            "DatabaseAssembly.loaded",
            "LoggerAssembly.loaded assembled",
        ])
    }

    @Test func aFailureAfterANestedApplyDropsTheNestedRegistrationsToo() throws {
        let log = AssemblyLog()
        let app = Container(name: "app")
        #expect(throws: RegistrationError.self) {
            try app.apply(NestingAssembly(log: log, inner: [DatabaseAssembly(log: log)]), FailingAssembly(log: log))
        }
        #expect(!app.isRegistered(UInt.self))
        #expect(!app.isRegistered(Database.self))
        #expect(!log.all.contains("DatabaseAssembly.loaded"))
    }

    @Test func aFailedNestedApplyDropsOnlyWhatItStaged() throws {
        let log = AssemblyLog()
        let app = Container(name: "app")
        let nesting = NestingAssembly(
            log: log,
            inner: [DatabaseAssembly(log: log), FailingAssembly(log: log)],
            catchInnerFailure: true
        )
        try app.apply(nesting)
        #expect(app.isRegistered(UInt.self))
        #expect(!app.isRegistered(Database.self))
        #expect(!app.isRegistered(String.self))
        #expect(log.all == [
            "NestingAssembly.assemble",
            "DatabaseAssembly.assemble",
            "FailingAssembly.assemble",
            "inner failed: assemblyFailed",
            "NestingAssembly.loaded",
        ])
    }

    @Test func registrationsIntoOtherContainersTakeEffectAtOnce() throws {
        let app = Container(name: "app")
        let child = app.child(name: "child")
        #expect(throws: RegistrationError.self) { try app.apply(ChildAssembly(child: child)) }
        #expect(try child.resolve(String.self) == "child")
    }

    @Test func behavioursAreToldOnceEverythingIsAppliedAndNotAtAllOnFailure() throws {
        let log = AssemblyLog()
        let app = Container(name: "app")
        let behavior = RegistrationLog()
        app.addBehavior(behavior)

        #expect(throws: RegistrationError.self) {
            try app.apply(LoggerAssembly(log: log), FailingAssembly(log: log))
        }
        #expect(behavior.log.all.isEmpty)

        try app.apply(LoggerAssembly(log: log), DatabaseAssembly(log: log))
        #expect(behavior.log.all == ["any Logger all visible: true", "Database all visible: true"])
    }

    // MARK: A container that closes

    /// A closed container runs no assembly — `assemble(into:)` may make children or register elsewhere — and says
    /// why: `containerClosed`, naming the assemblies, the container and the ancestor that closed it.
    @Test func aClosedContainerRunsNoAssembly() throws {
        let log = AssemblyLog()
        let app = Container(name: "app")
        app.close()
        let error = try #require(throws: RegistrationError.self) {
            try app.apply(LoggerAssembly(log: log), DatabaseAssembly(log: log))
        }
        #expect(error.code == .containerClosed)
        #expect(error.message.contains("Cannot apply LoggerAssembly, DatabaseAssembly to app (at "), "\(error)")
        #expect(error.message.contains("no assembly ran. app is closed. Apply the assemblies before calling close()"),
            "\(error)")
        #expect(log.all.isEmpty)
        let late = app.child(name: "late")
        let lateError = try #require(throws: RegistrationError.self) { try late.apply(DatabaseAssembly(log: log)) }
        #expect(lateError.code == .containerClosed)
        #expect(lateError.message.contains("late is closed, and so is its ancestor app"), "\(lateError)")
        #expect(lateError.message.contains("Apply the assemblies to a container that is still open"), "\(lateError)")
        #expect(log.all.isEmpty)
    }

    /// Where `ClosingAssembly` closes its container.
    enum Step: String, CaseIterable, Sendable {
        case assemble, loaded
    }

    /// A container that closes while its assemblies assemble applies nothing; one that closes while the
    /// `loaded` hooks run refuses the hook that asks it. Either way the error is `containerClosed` and says
    /// when the container closed — not `assemblyFailed` with advice to fix an assembly that did nothing wrong.
    @Test(arguments: Step.allCases)
    func aContainerThatClosesDuringApplySaysWhen(closesIn step: Step) throws {
        let log = AssemblyLog()
        let app = Container(name: "app")
        let error = try #require(throws: RegistrationError.self) {
            try app.apply(ClosingAssembly(log: log, container: app, closesIn: step), DatabaseAssembly(log: log))
        }
        #expect(error.code == .containerClosed, "\(error)")
        #expect(error.message.hasPrefix("Cannot apply ClosingAssembly, DatabaseAssembly to app (at "), "\(error)")
        #expect(!error.message.contains("Fix "), "\(error)")
        #expect(error.message.hasSuffix("Call close() only once apply(_:) has returned, or apply the assemblies to a "
            + "container that is still open."), "\(error)")
        switch step {
        case .assemble:
            #expect(error.message.contains("app was closed while ClosingAssembly.assemble(into:) ran, so nothing was "
                + "applied and no loaded(resolver:) hook ran."), "\(error)")
            #expect(log.all == ["ClosingAssembly.assemble"])
        case .loaded:
            #expect(error.message.contains("app was closed while the loaded(resolver:) hooks ran, and "
                + "ClosingAssembly.loaded(resolver:) was refused for it"), "\(error)")
            #expect(error.message.contains("The loaded(resolver:) hooks of DatabaseAssembly did not run."))
            #expect((error.underlying as? ResolutionError)?.code == .containerClosed)
            #expect(log.all == ["ClosingAssembly.assemble", "DatabaseAssembly.assemble", "ClosingAssembly.loaded"])
        }
    }

    /// Threads apply an assembly whose `loaded` hook builds a `Disposable` singleton, each into children of the
    /// app that it makes one after another, while the app closes: every `apply` either succeeds or throws
    /// `containerClosed`, and every instance a hook built is disposed exactly once — by the close, or at once
    /// when its container had closed while it was built. Run also under `swift test --sanitize=thread`.
    @Test(.timeLimit(.minutes(1)), arguments: [1, 2, 3, 16])
    func applyingWhileTheParentClosesAppliesAllOrIsRefused(threads: Int) async throws {
        let (log, builds) = (Log(), Counter())
        let app = Container(name: "app")
        let applied = Counter()
        // Every child is kept until the app has closed it: a child dropped without `close()` disposes nothing,
        // and a thread that sees the app closed may finish while the app is still closing its children.
        let features = Lock<[Container]>([])
        let outcomes = await raceOnThreads(threads + 1, within: .seconds(45)) { thread -> [String] in
            if thread == threads {
                while applied.value < threads * 20 { Thread.sleep(forTimeInterval: 0.000_1) }
                app.close()
                return []
            }
            var unexpected: [String] = []
            for index in 0..<2_000 {
                let feature = app.child(name: "feature\(thread)-\(index)")
                features.withLock { $0.append(feature) }
                do {
                    try feature.apply(WarmingAssembly(log: log, builds: builds))
                    applied.increment()
                } catch let error as RegistrationError where error.code == .containerClosed {
                    break
                } catch {
                    unexpected.append("\(error)")
                }
            }
            if !app.isClosed { unexpected.append("gave up before the app closed") }
            return unexpected
        }
        let results = try #require(outcomes, "a thread hung")
        #expect(results.allSatisfy { $0.isEmpty }, "\(results.flatMap { $0 }.prefix(3))")
        let disposed = log.entries
        #expect(Set(disposed).count == disposed.count, "an instance was disposed twice")
        #expect(disposed.count == builds.value, "built \(builds.value), disposed \(disposed.count)")
        #expect(features.withLock { $0.allSatisfy(\.isClosed) })
    }

    @Test func registeringAfterApplyGoesStraightToTheContainer() throws {
        let log = AssemblyLog()
        let app = Container(name: "app")
        try app.apply(DatabaseAssembly(log: log))
        try app.register((any Logger).self) { _ in ConsoleLogger(label: "later") }
        #expect(try app.resolve(Database.self).logger.label == "later")
    }
}
