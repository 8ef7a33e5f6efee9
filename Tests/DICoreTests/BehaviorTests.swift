import DICore
import Synchronization
import Testing

/// Records what it is told, as `label: description` lines, from any thread.
private final class Journal: Sendable {
    private let lines = Lock<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

private final class RecordingBehavior: ContainerBehavior {
    let label: String
    let journal: Journal
    let infos = Lock<[RegistrationInfo]>([])

    init(_ label: String = "rec", journal: Journal = Journal()) {
        self.label = label
        self.journal = journal
    }

    func didRegister(_ info: RegistrationInfo, in container: Container) throws {
        infos.withLock { $0.append(info) }
        journal.append("\(label): \(info.displayName) in \(container.name)")
    }

    var recorded: [RegistrationInfo] { infos.withLock { $0 } }
}

private struct BehaviorFailure: Error, Equatable {
    let reason: String
}

private struct ThrowingBehavior: ContainerBehavior {
    func didRegister(_ info: RegistrationInfo, in container: Container) throws {
        throw BehaviorFailure(reason: "no \(info.displayName)")
    }
}

private struct ResolutionRecorder: ResolutionBehavior {
    let journal = Journal()

    func didResolve(_ info: RegistrationInfo, instance: Any, in container: Container) {
        journal.append("\(info.displayName) from \(container.name) held by \(info.container)")
    }
}

private final class Widget: Sendable {}

private func same(_ type: Any.Type?, _ other: Any.Type) -> Bool {
    type.map { ObjectIdentifier($0) == ObjectIdentifier(other) } ?? false
}

@Suite struct ContainerBehaviorTests {
    @Test func toldAboutEachRegistrationWithWhatWhereAndHow() throws {
        let app = Container(name: "app")
        let behavior = RecordingBehavior()
        app.addBehavior(behavior)

        let line = #line + 1
        try app.register(Database.self, name: "primary", scope: .singleton, overridable: false) { r in
            Database(logger: try r.resolve((any Logger).self))
        }

        let info = try #require(behavior.recorded.first)
        #expect(behavior.recorded.count == 1)
        #expect(same(info.serviceType, Database.self))
        #expect(info.name == "primary")
        #expect(info.scope == .singleton)
        #expect(info.scope.name == "singleton")
        #expect(!info.overridable)
        #expect(info.container == "app")
        #expect(info.location.line == line)
        #expect(info.location.fileID.hasSuffix("BehaviorTests.swift"))
        #expect(info.aliasedType == nil)
        #expect(info.description == "Database \"primary\" (singleton) in app at \(info.location)")
    }

    @Test func describesArgumentsAsyncAliasesAndDependencies() throws {
        let app = Container(name: "app")
        let behavior = RecordingBehavior()
        app.addBehavior(behavior)

        try app.register(String.self) { (_: any Resolver, count: Int) in String(count) }
        try app.registerAsync(Widget.self) { _ in Widget() }
        try app.register(RouterImpl.self, scope: .singleton) { _ in RouterImpl() }.implements((any Router).self)
        try app.autoregister(Repository.self, initializer: Repository.init(database:))

        let infos = behavior.recorded
        try #require(infos.count == 5)
        #expect(infos[0].argumentTypes.count == 1 && same(infos[0].argumentTypes.first, Int.self))
        #expect(infos[1].isAsync)
        #expect(infos[2].aliasedType == nil)
        #expect(same(infos[3].serviceType, (any Router).self))
        #expect(same(infos[3].aliasedType, RouterImpl.self))
        #expect(infos[3].scope == .singleton)
        #expect(infos[4].dependencies == [Dependency(Database.self)])
    }

    @Test func notToldAboutRegistrationsMadeBeforeItWasAdded() throws {
        let app = Container(name: "app")
        try app.register(Int.self) { _ in 1 }
        let behavior = RecordingBehavior()
        app.addBehavior(behavior)
        try app.register(String.self) { _ in "s" }
        #expect(behavior.recorded.map(\.displayName) == ["String"])
    }

    @Test func childrenInheritBehavioursAndParentsDoNot() throws {
        let journal = Journal()
        let app = Container(name: "app")
        let early = app.child(name: "early")
        app.addBehavior(RecordingBehavior("app", journal: journal))
        let late = app.child(name: "late")
        let grandchild = late.child(name: "grandchild")
        grandchild.addBehavior(RecordingBehavior("grandchild", journal: journal))

        try early.register(Int.self) { _ in 1 }
        try late.register(Int.self) { _ in 2 }
        try grandchild.register(Int.self) { _ in 3 }
        try app.register(String.self) { _ in "s" }

        #expect(journal.all == [
            "app: Int in early",
            "app: Int in late",
            "app: Int in grandchild",
            "grandchild: Int in grandchild",
            "app: String in app",
        ])
    }

    @Test func siblingsDoNotShareBehaviours() throws {
        let app = Container(name: "app")
        let checkout = app.child(name: "checkout")
        let session = app.child(name: "session")
        let behavior = RecordingBehavior()
        checkout.addBehavior(behavior)
        try session.register(Int.self) { _ in 1 }
        #expect(behavior.recorded.isEmpty)
    }

    @Test func aThrowingBehaviourLeavesTheRegistrationAppliedAndTheOthersStillRun() throws {
        let app = Container(name: "app")
        let before = RecordingBehavior("before")
        let after = RecordingBehavior("after")
        app.addBehavior(before)
        app.addBehavior(ThrowingBehavior())
        app.addBehavior(after)

        let error = try #require(throws: RegistrationError.self) {
            try app.register(Int.self, name: "answer") { _ in 42 }
        }
        #expect(error.code == .behaviorFailed)
        #expect((error.underlying as? BehaviorFailure) == BehaviorFailure(reason: "no Int \"answer\""))
        #expect(error.service == "Int \"answer\"")
        #expect(error.container == "app")
        #expect(error.message.contains("ThrowingBehavior"))
        #expect(error.message.contains("stays in place"))
        #expect(try app.resolve(Int.self, name: "answer") == 42)
        #expect(before.recorded.count == 1)
        #expect(after.recorded.count == 1)

        // The container keeps working: the next registration is applied and reported too.
        #expect(throws: RegistrationError.self) { try app.register(String.self) { _ in "s" } }
        #expect(try app.resolve(String.self) == "s")
        #expect(after.recorded.map(\.displayName) == ["Int \"answer\"", "String"])
    }

    @Test func aBuilderIsReportedOnceEverythingIsAppliedAndARefusedOneNotAtAll() throws {
        struct SeesWholeBatch: ContainerBehavior {
            let journal: Journal
            func didRegister(_ info: RegistrationInfo, in container: Container) throws {
                let all = container.isRegistered(Int.self) && container.isRegistered(String.self)
                journal.append("\(info.displayName) all=\(all)")
            }
        }
        let journal = Journal()
        let app = Container(name: "app")
        app.addBehavior(SeesWholeBatch(journal: journal))
        try app.register {
            Transient(Int.self) { _ in 1 }
            Transient(String.self) { _ in "s" }
        }
        #expect(journal.all == ["Int all=true", "String all=true"])

        try app.register(Double.self, overridable: false) { _ in 1 }
        #expect(throws: RegistrationError.self) {
            try app.register {
                Transient(Float.self) { _ in 1 }
                Transient(Double.self) { _ in 2 }
            }
        }
        #expect(journal.all == ["Int all=true", "String all=true", "Double all=true"])
    }

    @Test func aThrowingBehaviourDoesNotUndoABuilder() throws {
        let app = Container(name: "app")
        let after = RecordingBehavior()
        app.addBehavior(ThrowingBehavior())
        app.addBehavior(after)
        let error = try #require(throws: RegistrationError.self) {
            try app.register {
                Transient(Int.self) { _ in 1 }
                Transient(String.self) { _ in "s" }
            }
        }
        #expect(error.code == .behaviorFailed)
        #expect(error.message.contains("1 more behaviour call"))
        #expect(try app.resolve(Int.self) == 1)
        #expect(try app.resolve(String.self) == "s")
        #expect(after.recorded.count == 2)
    }

    @Test(.timeLimit(.minutes(1)))
    func aBehaviourMayRegisterAndResolveWhileItRuns() throws {
        struct Reentrant: ContainerBehavior {
            func didRegister(_ info: RegistrationInfo, in container: Container) throws {
                guard info.serviceType == String.self else { return }
                let value = try container.resolve(String.self)
                try container.register(Int.self) { _ in value.count }
                _ = container.child(name: "made by a behaviour")
            }
        }
        let app = Container(name: "app")
        app.addBehavior(Reentrant())
        try app.register(String.self) { _ in "four" }
        #expect(try app.resolve(Int.self) == 4)
    }

    @Test func onlyResolutionBehavioursLeaveTheFastPath() throws {
        let app = Container(name: "app")
        let early = app.child(name: "early")
        let unrelated = Container(name: "unrelated")
        app.addBehavior(RecordingBehavior())
        #expect(!app.takesSlowPath)
        #expect(!early.takesSlowPath)

        early.addBehavior(ResolutionRecorder())
        #expect(early.takesSlowPath)
        #expect(!app.takesSlowPath)

        app.addBehavior(ResolutionRecorder())
        let late = early.child(name: "late")
        #expect(app.takesSlowPath)
        #expect(late.takesSlowPath)
        #expect(!unrelated.takesSlowPath)
    }

    @Test func childrenCreatedWhileAResolutionBehaviourIsAddedAllObserve() async {
        for _ in 0..<20 {
            let app = Container(name: "app")
            let made = await withTaskGroup(of: [Container].self) { group in
                for worker in 0..<3 {
                    group.addTask {
                        (0..<30).flatMap { index -> [Container] in
                            let child = app.child(name: "c\(worker)-\(index)")
                            return [child, child.child(name: "g\(worker)-\(index)")]
                        }
                    }
                }
                group.addTask {
                    app.addBehavior(ResolutionRecorder())
                    return []
                }
                var all: [Container] = []
                for await containers in group { all += containers }
                return all
            }
            #expect(made.count == 180)
            #expect(made.allSatisfy { $0.takesSlowPath })
        }
    }

    @Test func aResolutionBehaviourIsToldAboutEveryResolveIncludingBuiltSingletons() throws {
        let app = Container(name: "app")
        try app.register((any Logger).self, scope: .singleton) { _ in ConsoleLogger() }
        try app.register(Database.self) { r in Database(logger: try r.resolve((any Logger).self)) }
        _ = try app.resolve((any Logger).self)        // built before anyone observes
        let checkout = app.child(name: "checkout")
        let recorder = ResolutionRecorder()
        app.addBehavior(recorder)

        _ = try app.resolve((any Logger).self)
        _ = try app.resolve((any Logger).self)
        _ = try checkout.resolve(Database.self)

        #expect(recorder.journal.all == [
            "any Logger from app held by app",
            "any Logger from app held by app",
            "any Logger from checkout held by app",
            "Database from checkout held by app",
        ])
    }

    @Test func resolvesWithArgumentsAsyncAndThroughEveryEntryPointAreReported() async throws {
        let app = Container(name: "app")
        let recorder = ResolutionRecorder()
        app.addBehavior(recorder)
        try app.register(String.self) { (_: any Resolver, count: Int) in String(count) }
        try app.registerAsync(Widget.self, scope: .singleton) { _ in Widget() }
        try app.register(Int.self, name: "one") { _ in 1 }
        try app.register(Int.self, name: "two") { _ in 2 }

        _ = try app.resolve(String.self, argument: 3)
        _ = try await app.resolveAsync(Widget.self)
        _ = try app.resolveAll(Int.self)
        _ = try app.resolveIfRegistered(Int.self, name: "one")
        _ = try app.resolve(Optional<Int>.self, name: "two")

        #expect(recorder.journal.all == [
            "String from app held by app",
            "Widget from app held by app",
            "Int \"one\" from app held by app",
            "Int \"two\" from app held by app",
            "Int \"one\" from app held by app",
            "Int \"two\" from app held by app",
        ])
    }

    @Test func failedResolvesAreNotReportedAndAClosedContainerStillRefuses() throws {
        let app = Container(name: "app")
        let recorder = ResolutionRecorder()
        app.addBehavior(recorder)
        try app.register(String.self) { _ in throw FactoryError(reason: "boom") }
        try app.register(Int.self, scope: .singleton) { _ in 1 }
        #expect(throws: ResolutionError.self) { try app.resolve(String.self) }
        #expect(throws: ResolutionError.self) { try app.resolve(Double.self) }
        #expect(recorder.journal.all.isEmpty)

        app.close()
        let error = try #require(throws: ResolutionError.self) { try app.resolve(Int.self) }
        #expect(error.code == .containerClosed)
        #expect(recorder.journal.all.isEmpty)
    }

    @Test(.timeLimit(.minutes(1)))
    func resolvingInsideDidResolveIsNotReportedAgain() throws {
        struct Nosy: ResolutionBehavior {
            let journal = Journal()
            func didResolve(_ info: RegistrationInfo, instance: Any, in container: Container) {
                let again = (try? container.resolve(Int.self)) ?? -1
                journal.append("\(info.displayName)=\(instance) again=\(again)")
            }
        }
        let app = Container(name: "app")
        let nosy = Nosy()
        app.addBehavior(nosy)
        try app.register(Int.self) { _ in 7 }
        _ = try app.resolve(Int.self)
        #expect(nosy.journal.all == ["Int=7 again=7"])
    }
}
