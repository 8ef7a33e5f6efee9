import DICore
import DITestSupport
import Testing

extension ServiceKeys {
    fileprivate var badInputRequired: ServiceKey<BadInputMatrixTests.Probe> { .required() }
    fileprivate var badInputCycle: ServiceKey<BadInputMatrixTests.Probe> {
        .init(scope: .singleton) { r in try r.resolve(\.badInputCycle) }
    }
    fileprivate var badInputThrows: ServiceKey<BadInputMatrixTests.Probe> {
        .init { _ in throw BadInputMatrixTests.DiskFull() }
    }
    fileprivate var badInputPlain: ServiceKey<BadInputMatrixTests.Probe> { .init { _ in BadInputMatrixTests.Probe() } }
}

/// Every public entry point with each kind of bad input: the error has the right code, its text names the
/// problem and the right way out, and the container still resolves everything else afterwards (and the
/// corrected call works).
@Suite struct BadInputMatrixTests {
    final class Probe: Sendable {}
    final class Unregistered: Sendable {}
    final class Healthy: Sendable {}
    final class Wrapper: Sendable {}
    protocol Marker: AnyObject, Sendable {}
    /// Registered as a `Marker` alias without conforming to it.
    final class Plain: Sendable {}
    final class Conforming: Marker {}
    struct DiskFull: Error, CustomStringConvertible {
        var description: String { "disk full" }
    }

    // MARK: Resolution

    enum Entry: String, CaseIterable, Sendable {
        case resolve, resolveInferred, resolveAs, resolveIfRegistered, resolveAsync, resolveAll, throughResolver
    }

    enum Requested: Sendable {
        case probe(String?)
        case unregistered
        case marker
    }

    enum BadInput: String, CaseIterable, Sendable {
        case missingKey, wrongName, cycle, selfResolving, nonConformingAlias, closedContainer,
             asyncResolvedSynchronously, throwingFactory

        var requested: Requested {
            switch self {
            case .missingKey: .unregistered
            case .wrongName: .probe("primray")
            case .cycle: .probe("cycleA")
            case .selfResolving: .probe("self")
            case .nonConformingAlias: .marker
            case .closedContainer: .probe("present")
            case .asyncResolvedSynchronously: .probe("async")
            case .throwingFactory: .probe("throws")
            }
        }

        /// Registers what makes the request bad, in `app`.
        func prepare(_ app: Container) throws {
            switch self {
            case .missingKey: break
            case .wrongName:
                try app.register(Probe.self, name: "primary") { _ in Probe() }
                try app.register(Probe.self, name: "secondary") { _ in Probe() }
            case .cycle:
                try app.register(Probe.self, name: "cycleA", scope: .singleton) { r in
                    _ = try r.resolve(Probe.self, name: "cycleB")
                    return Probe()
                }
                try app.register(Probe.self, name: "cycleB", scope: .singleton) { r in
                    _ = try r.resolve(Probe.self, name: "cycleA")
                    return Probe()
                }
            case .selfResolving:
                try app.register(Probe.self, name: "self") { r in try r.resolve(Probe.self, name: "self") }
            case .nonConformingAlias:
                try app.register(Plain.self) { _ in Plain() }.implements((any Marker).self)
            case .closedContainer:
                try app.register(Probe.self, name: "present", scope: .singleton) { _ in Probe() }
            case .asyncResolvedSynchronously:
                try app.registerAsync(Probe.self, name: "async", scope: .singleton) { _ in Probe() }
            case .throwingFactory:
                try app.register(Probe.self, name: "throws") { _ in throw DiskFull() }
            }
        }

        /// The words of the way out when the request is made through `entry`: a request a factory makes is
        /// changed in that factory, not at a `container.resolve` of the caller's.
        func wayOut(via entry: Entry) -> [String] {
            switch (self, entry) {
            case (.wrongName, .throughResolver):
                ["fix:       in the factory of Wrapper \"wrapping\" (DICoreTests/BadInputMatrixTests.swift:",
                 "), resolve it with name: \"primary\""]
            case (.asyncResolvedSynchronously, .resolveAll):
                ["call `try await resolveAllAsync(Probe.self)`"]
            default: expected.wayOut
            }
        }

        /// What the error must say: its code, words naming the problem, words of the way out.
        var expected: (code: ResolutionError.Code, problem: [String], wayOut: [String]) {
            switch self {
            case .missingKey:
                (.notRegistered, ["Unregistered", "nothing is registered"],
                 ["fix:       register it in", "register(Unregistered.self)"])
            case .wrongName:
                (.notRegistered, ["Probe \"primray\"", "Did you mean \"primary\"?"],
                 ["fix:       pass name: \"primary\""])
            case .cycle:
                (.circularDependency, ["Probe \"cycleA\" → Probe \"cycleB\" → Probe \"cycleA\""], ["Break the cycle"])
            case .selfResolving:
                (.circularDependency, ["Probe \"self\" → Probe \"self\"", "this same registration"],
                 ["A factory builds its service rather than resolving it"])
            case .nonConformingAlias:
                (.typeMismatch, ["Plain", "does not conform"],
                 ["Make Plain conform to Marker, or remove .implements((any Marker).self) at DICoreTests/BadInputMatrixTests.swift:80."])
            case .closedContainer:
                (.containerClosed, ["closed"], ["still open"])
            case .asyncResolvedSynchronously:
                (.asyncResolutionRequired, ["Probe \"async\"", "async"], ["resolveAsync"])
            case .throwingFactory:
                (.factoryFailed, ["Probe \"throws\"", "disk full"], ["BadInputMatrixTests.swift:"])
            }
        }

        /// What `entry` should do with this input when it does not throw: `nil` means it must throw.
        func acceptedOutcome(via entry: Entry) -> String? {
            switch (self, entry) {
            case (.missingKey, .resolveIfRegistered), (.wrongName, .resolveIfRegistered): "nil"
            case (.missingKey, .resolveAll): "0 services"
            case (.wrongName, .resolveAll): "2 services"
            case (.asyncResolvedSynchronously, .resolveAsync): "a service"
            default: nil
            }
        }

        /// The corrected request works afterwards.
        func correct(app: Container, feature: Container) async throws {
            switch self {
            case .missingKey:
                try app.register(Unregistered.self) { _ in Unregistered() }
                _ = try feature.resolve(Unregistered.self)
            case .wrongName:
                _ = try feature.resolve(Probe.self, name: "primary")
            case .cycle:
                try app.register(Probe.self, name: "cycleB", scope: .singleton) { _ in Probe() }
                _ = try feature.resolve(Probe.self, name: "cycleA")
            case .selfResolving:
                try app.register(Probe.self, name: "self") { _ in Probe() }
                _ = try feature.resolve(Probe.self, name: "self")
            case .nonConformingAlias:
                try app.register((any Marker).self) { _ in Conforming() }
                _ = try feature.resolve((any Marker).self)
            case .closedContainer:
                _ = try app.resolve(Probe.self, name: "present")
                _ = try app.child(name: "new").resolve(Probe.self, name: "present")
            case .asyncResolvedSynchronously:
                _ = try await feature.resolveAsync(Probe.self, name: "async")
            case .throwingFactory:
                try app.register(Probe.self, name: "throws") { _ in Probe() }
                _ = try feature.resolve(Probe.self, name: "throws")
            }
        }
    }

    struct Combination: Sendable, CustomTestStringConvertible {
        let input: BadInput
        let entry: Entry
        var testDescription: String { "\(input.rawValue) via \(entry.rawValue)" }

        static let all = BadInput.allCases.flatMap { input in Entry.allCases.map { Combination(input: input, entry: $0) } }
    }

    /// Tries `requested` through `entry`; a description of what it returned, or the error.
    static func attempt(_ requested: Requested, via entry: Entry, in container: Container) async throws -> String {
        switch requested {
        case .probe(let name): try await attempt(Probe.self, name: name, via: entry, in: container)
        case .unregistered: try await attempt(Unregistered.self, name: nil, via: entry, in: container)
        case .marker: try await attempt((any Marker).self, name: nil, via: entry, in: container)
        }
    }

    static func attempt<T>(_ type: T.Type, name: String?, via entry: Entry, in container: Container) async throws
        -> String
    {
        switch entry {
        case .resolve:
            _ = try container.resolve(type, name: name)
        case .resolveInferred:
            let _: T = try container.resolve(name: name)
        case .resolveAs:
            _ = try container.resolve(type, name: name, as: T.self)
        case .resolveIfRegistered:
            if try container.resolveIfRegistered(type, name: name) == nil { return "nil" }
        case .resolveAsync:
            _ = try await container.resolveAsync(type, name: name)
        case .resolveAll:
            return "\(try container.resolveAll(type).count) services"
        case .throughResolver:
            _ = try container.resolve(Wrapper.self, name: "wrapping")
        }
        return "a service"
    }

    static func registerWrapper(for requested: Requested, in app: Container) throws {
        try app.register(Wrapper.self, name: "wrapping") { r in
            switch requested {
            case .probe(let name): _ = try r.resolve(Probe.self, name: name)
            case .unregistered: _ = try r.resolve(Unregistered.self, name: nil)
            case .marker: _ = try r.resolve((any Marker).self, name: nil)
            }
            return Wrapper()
        }
    }

    @Test(.timeLimit(.minutes(1)), arguments: Combination.all)
    func badRequestFailsClearlyAndLeavesTheContainerWorking(_ combination: Combination) async throws {
        let (input, entry) = (combination.input, combination.entry)
        let app = Container(name: "app")
        let feature = app.child(name: "feature")
        try app.register(Healthy.self, scope: .singleton) { _ in Healthy() }
        let healthy = try app.resolve(Healthy.self)
        try Self.registerWrapper(for: input.requested, in: app)
        try input.prepare(app)
        if input == .closedContainer { feature.close() }

        let outcome: Result<String, any Error>
        do { outcome = .success(try await Self.attempt(input.requested, via: entry, in: feature)) } catch {
            outcome = .failure(error)
        }
        switch (outcome, input.acceptedOutcome(via: entry)) {
        case (.success(let got), let accepted?):
            #expect(got == accepted)
        case (.success(let got), nil):
            Issue.record("returned \(got) instead of throwing \(input.expected.code)")
        case (.failure(let error), let accepted?):
            Issue.record("threw instead of returning \(accepted): \(error)")
        case (.failure(let error), nil):
            let error = try #require(error as? ResolutionError, "not a ResolutionError: \(error)")
            let expected = input.expected
            #expect(error.code == expected.code, "\(error)")
            let text = error.description
            for words in expected.problem + input.wayOut(via: entry) {
                #expect(text.contains(words), "missing \"\(words)\" in:\n\(text)")
            }
            if entry == .throughResolver {
                #expect(error.path.first?.description == "Wrapper \"wrapping\"", "the path starts at the request")
            }
        }

        // Everything else still works, and so does the corrected request.
        #expect(try app.resolve(Healthy.self) === healthy)
        if input != .closedContainer { #expect(try feature.resolve(Healthy.self) === healthy) }
        try await input.correct(app: app, feature: feature)
    }

    // MARK: Runtime arguments

    struct Report: Sendable { let quarter: String }

    enum ArgumentCall: String, CaseIterable, Sendable {
        case wrongType, wrongCount, none, noneAsync, wrongTypeThroughResolver
    }

    @Test(.timeLimit(.minutes(1)), arguments: ArgumentCall.allCases)
    func wrongArgumentsSayWhatTheServiceTakes(_ call: ArgumentCall) async throws {
        let app = Container(name: "app")
        try app.register(Healthy.self, scope: .singleton) { _ in Healthy() }
        try app.register(Report.self) { (_: any Resolver, quarter: String) in Report(quarter: quarter) }
        let wrapperLine = #line + 1
        try app.register(Wrapper.self) { r in
            _ = try r.resolve(Report.self, argument: 3)
            return Wrapper()
        }
        let error = try await #require(throws: ResolutionError.self) {
            switch call {
            case .wrongType: _ = try app.resolve(Report.self, argument: 3)
            case .wrongCount: _ = try app.resolve(Report.self, arguments: "Q1", 2)
            case .none: _ = try app.resolve(Report.self)
            case .noneAsync: _ = try await app.resolveAsync(Report.self)
            case .wrongTypeThroughResolver: _ = try app.resolve(Wrapper.self)
            }
        }
        #expect(error.code == .argumentMismatch)
        #expect(error.message.contains("takes an argument (String). Pass an argument of that type with "
            + "resolve(_:argument:)."), "\(error)")
        let fix = call == .wrongTypeThroughResolver
            ? "fix:       in the factory of Wrapper (DICoreTests/BadInputMatrixTests.swift:\(wrapperLine)), pass its "
                + "argument: try r.resolve(Report.self, argument: <String>)"
            : "fix:       pass its argument: try container.resolve(Report.self, argument: <String>)"
        #expect(error.description.contains(fix), "\(error)")
        #expect(!error.description.contains("register it"))
        #expect(try app.resolve(Report.self, argument: "Q3").quarter == "Q3")
        _ = try app.resolve(Healthy.self)
    }

    // MARK: Registration

    enum RegistrationEntry: String, CaseIterable, Sendable {
        case register, registerAsync, autoregister, builder, implements, apply
    }

    struct ProbeAssembly: Assembly {
        func assemble(into container: Container) throws {
            try container.register(Probe.self) { _ in Probe() }
        }
    }

    static func register(via entry: RegistrationEntry, in container: Container) throws {
        switch entry {
        case .register: try container.register(Probe.self) { _ in Probe() }
        case .registerAsync: try container.registerAsync(Probe.self) { _ in Probe() }
        case .autoregister: try container.autoregister(Probe.self, initializer: Probe.init)
        case .builder: try container.register { Singleton(Probe.self) { _ in Probe() } }
        case .implements: try container.register(Wrapper.self) { _ in Wrapper() }.implements(Probe.self)
        case .apply: try container.apply(ProbeAssembly())
        }
    }

    @Test(arguments: RegistrationEntry.allCases)
    func reRegisteringANonOverridableKeyIsRefused(_ entry: RegistrationEntry) throws {
        let app = Container(name: "app")
        try app.register(Healthy.self, scope: .singleton) { _ in Healthy() }
        let original = Probe()
        try app.register(Probe.self, overridable: false) { _ in original }
        let error = try #require(throws: RegistrationError.self) { try Self.register(via: entry, in: app) }
        let refused = try #require(entry == .apply ? error.underlying as? RegistrationError ?? error : error)
        #expect(refused.code == .alreadyRegistered, "\(error)")
        #expect(refused.description.contains("Probe"), "\(refused)")
        #expect(refused.description.contains("overridable: false"), "the way out is missing: \(refused)")
        #expect(refused.existing?.fileID == "DICoreTests/BadInputMatrixTests.swift")
        #expect(try app.resolve(Probe.self) === original)
        _ = try app.resolve(Healthy.self)
    }

    /// Refused for being closed, also when the registration would be refused for something else too (here an
    /// ancestor's `overridable: false` registration of the key): the close is the refusal no change to the
    /// registration undoes, and advice about the other would send the reader the wrong way first.
    @Test(arguments: RegistrationEntry.allCases, [false, true])
    func registeringIntoAClosedContainerIsRefused(_ entry: RegistrationEntry, finalInTheParent: Bool) throws {
        let app = Container(name: "app")
        let feature = app.child(name: "feature")
        try app.register(Healthy.self, scope: .singleton) { _ in Healthy() }
        if finalInTheParent { try app.register(Probe.self, overridable: false) { _ in Probe() } }
        feature.close()
        let error = try #require(throws: RegistrationError.self) { try Self.register(via: entry, in: feature) }
        let refused = entry == .apply ? error.underlying as? RegistrationError ?? error : error
        #expect(refused.code == .containerClosed, "\(error)")
        #expect(refused.description.contains("closed"))
        #expect(refused.description.contains("close()"), "the way out is missing: \(refused)")
        _ = try app.resolve(Healthy.self)
        if !finalInTheParent { try Self.register(via: entry, in: app.child(name: "open")) }
    }

    // MARK: Closed ancestors

    /// A child made after its parent closed is closed too, and so is resolving through a closed ancestor:
    /// neither may hand out the parent's disposed instances.
    @Test func childOfAClosedContainerIsClosedToo() throws {
        let app = Container(name: "app")
        try app.register(Probe.self, scope: .singleton) { _ in Probe() }
        _ = try app.resolve(Probe.self)
        app.close()
        let late = app.child(name: "late")
        let error = try #require(throws: ResolutionError.self) { try late.resolve(Probe.self) }
        #expect(error.code == .containerClosed, "\(error)")
        // Nobody called close() on `late`: the message says which ancestor closed it and what to do instead.
        #expect(error.description.contains("late is closed, and so is its ancestor app"), "\(error)")
        #expect(error.description.contains("close app only once nothing uses its children"), "\(error)")
        #expect(error.description.contains("Probe   not looked up: app is closed"), "\(error)")
        #expect(error.message.hasPrefix("Cannot resolve Probe: app is closed. late is closed, and so is its ancestor"),
                "\(error)")
        #expect(!error.description.contains("not found"), "\(error)")
        let registration = try #require(throws: RegistrationError.self) {
            try late.register(Healthy.self) { _ in Healthy() }
        }
        #expect(registration.code == .containerClosed)
        #expect(registration.container == "late")
        #expect(registration.description.contains("late is closed, and so is its ancestor app"), "\(registration)")
        #expect(!registration.description.contains("Register before calling close()"), "\(registration)")
        #expect(late.isClosed)
    }

    @Test func resolvingThroughAClosedAncestorIsRefused() throws {
        let app = Container(name: "app")
        let feature = app.child(name: "feature")
        let screen = feature.child(name: "screen")
        try app.register(Probe.self, scope: .singleton) { _ in Probe() }
        try screen.register(Healthy.self) { _ in Healthy() }
        feature.close()
        for request in [{ _ = try screen.resolve(Probe.self) }, { _ = try screen.resolve(Healthy.self) }] {
            let error = try #require(throws: ResolutionError.self) { try request() }
            #expect(error.code == .containerClosed)
            // The outermost closed ancestor is the one to name: closing it closed the rest.
            #expect(error.description.contains("screen is closed, and so is its ancestor feature"), "\(error)")
        }
        _ = try app.resolve(Probe.self)
    }

    // MARK: The keypath registry

    enum KeyPathInput: String, CaseIterable, Sendable {
        case requiredAndMissing, cycle, throwingFactory, closedContainer
    }

    @Test(arguments: KeyPathInput.allCases)
    func keyPathEntryFailsClearly(_ input: KeyPathInput) throws {
        let app = Container(name: "app")
        let feature = app.child(name: "feature")
        try app.register(Healthy.self, scope: .singleton) { _ in Healthy() }
        if input == .closedContainer { feature.close() }
        let error = try #require(throws: ResolutionError.self) {
            switch input {
            case .requiredAndMissing: _ = try feature.resolve(\.badInputRequired)
            case .cycle: _ = try feature.resolve(\.badInputCycle)
            case .throwingFactory: _ = try feature.resolve(\.badInputThrows)
            case .closedContainer: _ = try feature.resolve(\.badInputPlain)
            }
        }
        let (code, words): (ResolutionError.Code, [String]) = switch input {
        case .requiredAndMissing: (.requiredKeyMissing, ["\\.badInputRequired", "register(\\.badInputRequired)"])
        case .cycle: (.circularDependency, ["\\.badInputCycle → \\.badInputCycle", "this same registration",
                                            "A factory builds its service rather than resolving it"])
        case .throwingFactory: (.factoryFailed, ["\\.badInputThrows", "disk full"])
        case .closedContainer: (.containerClosed, ["closed", "still open"])
        }
        #expect(error.code == code, "\(error)")
        for word in words { #expect(error.description.contains(word), "missing \"\(word)\" in:\n\(error)") }
        _ = try app.resolve(Healthy.self)
        _ = try app.resolve(\.badInputPlain)
    }
}
