import DICore

/// Builds every service of a container subtree in throw-away copies of its containers, recording what each
/// factory resolves and turning every failure into a finding.
///
/// The copies have the same names, tags, shape and registrations (factories included) as the originals,
/// but registrations of their own, so every instance slot starts empty: nothing the real containers hold is
/// built or touched, and the copies are closed (disposing what they built) when the pass ends. A factory
/// that resolves through a container it captured, instead of its `Resolver` argument, still reaches that
/// real container; that is the one thing a copy cannot redirect.
struct Instantiation {
    private(set) var observed = ObservedEdges()
    private(set) var findings: [Finding] = []
    /// What each finding says, without the container it was met from: a service of an ancestor is built once
    /// per container of the subtree (its dependencies may differ there), and a failure that reads the same from
    /// every one of them is reported once, from the container nearest the validated one.
    private var reported = Set<[String]>()

    /// The originals of the validated subtree, asked container first.
    private let subtree: [Container]
    /// Every copy, ancestors first.
    private let ordered: [Container]
    private let copies: [ObjectIdentifier: Container]
    private let originalOf: [ObjectIdentifier: Registration]
    private let recorder: EdgeRecorder

    /// Builds every synchronous service of `container`'s subtree in copies.
    init(_ container: Container) {
        self.init(copying: container)
        observed.tried = .synchronous
        for (registration, owner, copy, original) in work(includingAsync: false) {
            build(registration, owner, original) { try copy.instantiate(registration, from: owner) }
        }
        finish()
    }

    /// Builds every service of `container`'s subtree in copies, `async` ones with `resolveAsync`.
    static func including(async container: Container) async -> Instantiation {
        var instantiation = Instantiation(copying: container)
        instantiation.observed.tried = .all
        for (registration, owner, copy, original) in instantiation.work(includingAsync: true) {
            if registration.isAsync {
                do {
                    let built = try await copy.instantiateAsync(registration, from: owner)
                    instantiation.built(registration, as: built)
                } catch {
                    instantiation.fail(error, registration, owner, original)
                }
            } else {
                instantiation.build(registration, owner, original) { try copy.instantiate(registration, from: owner) }
            }
        }
        instantiation.finish()
        return instantiation
    }

    /// Copies the tree, registrations included, and starts recording what factories resolve.
    private init(copying container: Container) {
        let ancestors = Array(container.ancestry.dropFirst().reversed())
        var subtree: [Container] = []
        var stack = [container]
        while let next = stack.popLast() {
            subtree.append(next)
            stack += next.children.reversed()
        }
        let originals = ancestors + subtree

        var copies: [ObjectIdentifier: Container] = [:]
        var copyOf: [ObjectIdentifier: Registration] = [:]
        var originalOf: [ObjectIdentifier: Registration] = [:]
        func clone(_ registration: Registration) -> Registration {
            if let done = copyOf[ObjectIdentifier(registration)] { return done }
            // An alias names its target by key, which finds the target's copy in the copied containers.
            let copy = Registration(
                key: registration.key, kind: registration.kind, body: registration.body,
                serviceType: registration.serviceType,
                argumentTypes: registration.argumentTypes, scope: registration.scope,
                overridable: registration.overridable, location: registration.location,
                dependencies: registration.dependencies, declaresDependencies: registration.declaresDependencies,
                keyPathName: registration.keyPathName, aliasOf: registration.aliasTarget == nil ? nil : registration
            )
            copyOf[ObjectIdentifier(registration)] = copy
            originalOf[ObjectIdentifier(copy)] = registration
            return copy
        }
        var ordered: [Container] = []
        // All at once; should a lifetime refuse one of them here, the others still go in, one by one.
        func insert(_ registrations: [Registration], into copy: Container) {
            let clones = registrations.map(clone)
            if (try? copy.insertNow(all: clones)) == nil {
                for registration in clones { try? copy.insertNow(all: [registration]) }
            }
        }
        for original in originals {
            let copy: Container
            if let parent = original.parent, let parentCopy = copies[ObjectIdentifier(parent)] {
                copy = parentCopy.child(name: original.name, tags: original.tags)
            } else if let (own, levels) = original.testLevels {
                // A test container over a base below the app: its levels copied as the tree they are, and a test
                // container over the copy, so that each level's services resolve as they do in the original.
                var levelCopy: Container?
                for (view, registrations) in levels {
                    let level = view.viewedLevel ?? view
                    let made = levelCopy?.child(name: level.name, tags: level.tags)
                        ?? Container(name: level.name, tags: level.tags)
                    insert(registrations, into: made)
                    ordered.append(made)
                    levelCopy = made
                }
                copy = Container.makeTestContainer(from: levelCopy!, name: original.name)
                insert(own, into: copy)
                copies[ObjectIdentifier(original)] = copy
                // Its views resolve the levels' dependencies: recorded too.
                ordered += [copy] + copy.makeTestViews()
                continue
            } else {
                copy = Container(name: original.name, tags: original.tags)
            }
            copies[ObjectIdentifier(original)] = copy
            ordered.append(copy)
            insert(original.registrationsTreatedAsOwn, into: copy)
        }
        self.subtree = subtree
        self.ordered = ordered
        self.copies = copies
        self.originalOf = originalOf
        recorder = EdgeRecorder(containers: ordered)
        ResolutionTaps.add(recorder, to: ordered)
    }

    /// What to build: every registration visible from every copy of the subtree, once per container
    /// where it can differ (a kept instance of an ancestor is built from that ancestor only).
    private func work(includingAsync: Bool)
        -> [(registration: Registration, owner: Container, copy: Container, original: Container)]
    {
        var result: [(Registration, Container, Container, Container)] = []
        for original in subtree {
            let copy = copies[ObjectIdentifier(original)]!
            var seen = Set<RegistrationKey>()
            // A test container resolves its base's levels in views of its own (a modelled one's copy does).
            for (source, owner) in copy.registrationSources {
                for registration in source.registry.all where seen.insert(registration.key).inserted {
                    let target = owner.builder(of: registration)?.registration ?? registration
                    if owner.testContainerOfView !== copy, Self.resolvesWhereRegistered(target.scope.name) {
                        continue
                    }
                    guard includingAsync || !registration.isAsync, registration.argumentTypes.isEmpty,
                          target.argumentTypes.isEmpty
                    else { continue }
                    // A `.matching(tag)` service is only meant to be asked for below a tagged container.
                    if let tag = GraphAnalysis.matchingTag(target.scope.name),
                       !copy.ancestry.contains(where: { $0.tags.contains(tag) })
                    {
                        continue
                    }
                    result.append((registration, owner, copy, original))
                }
            }
        }
        return result
    }

    private mutating func build(
        _ registration: Registration,
        _ owner: Container,
        _ original: Container,
        _ body: () throws -> Any.Type
    ) {
        do {
            built(owner.builder(of: registration)?.registration ?? registration, as: try body())
        } catch {
            fail(error, registration, owner, original)
        }
    }

    /// Records that `target` (the registration that builds instances, an alias's target for an alias) was
    /// built, as an instance of `implementation`.
    private mutating func built(_ target: Registration, as implementation: Any.Type) {
        recorder.markBuilt(target)
        if let original = originalOf[ObjectIdentifier(target)] {
            observed.implementations[ObjectIdentifier(original)] = implementation
        }
    }

    private mutating func fail(
        _ error: any Error,
        _ registration: Registration,
        _ owner: Container,
        _ original: Container
    ) {
        // A chain too deep is met by every build above the limit, each at another step of it: the first says it
        // (a chain of thousands would otherwise give thousands of findings, each formatting its long path).
        if (error as? ResolutionError)?.code == .depthLimitExceeded, !reported.insert(["depth limit"]).inserted {
            return
        }
        let finding = if let mismatch = error as? AliasMismatch {
            Self.finding(for: mismatch.error, in: original.name, help: mismatch.help)
        } else if let error = error as? ResolutionError {
            Self.finding(for: error, in: original.name)
        } else {
            Finding(
                id: .build, severity: .error, service: registration.displayName, container: original.name,
                message: "Building \(registration.displayName) failed: \(error).",
                path: [PathElement(registration, requested: registration.serviceType, in: owner)],
                help: "Fix the factory registered at \(registration.location)."
            )
        }
        // A loop is met from each of its services: one finding for it, as the static DI-CYCLE makes.
        let says = finding.id == .cycle
            ? [finding.id.rawValue] + Set(finding.path.map(\.description)).sorted()
            : [finding.id.rawValue, finding.message, finding.help]
                + finding.path.map { "\($0) \($0.scope ?? "") \($0.location.map { "\($0)" } ?? "")" }
        if reported.insert(says).inserted { findings.append(finding) }
    }

    /// Stops recording, closes the copies (disposing what they built) and maps what was observed back to
    /// the original registrations.
    private mutating func finish() {
        ResolutionTaps.remove(recorder, from: ordered)
        for copy in ordered.reversed() { copy.close() }
        let recorded = recorder.recorded
        for (registration, dependencies) in recorded.dependencies {
            guard let original = originalOf[registration] else { continue }
            for dependency in dependencies {
                observed.add(dependency, to: ObjectIdentifier(original))
            }
        }
        for registration in recorded.built {
            if let original = originalOf[registration] { observed.built.insert(ObjectIdentifier(original)) }
        }
    }

    /// `singleton`, `cached` and `weak` instances resolve their dependencies where they are registered.
    static func resolvesWhereRegistered(_ scope: String) -> Bool {
        scope == "singleton" || scope == "cached" || scope == "weak"
    }

    /// The loop at the end of a cycle error's `path`: from the first step that its last step repeats.
    private static func loop(in path: [PathElement]) -> ArraySlice<PathElement> {
        guard let last = path.last else { return [] }
        return path[(path.firstIndex { $0.description == last.description } ?? 0)...]
    }

    /// The finding for a resolution error met while building, by its code.
    static func finding(for error: ResolutionError, in container: String, help given: String? = nil) -> Finding {
        let id: Finding.ID
        let help: String
        switch error.code {
        case .notRegistered, .requiredKeyMissing:
            id = .missing
            help = "Register \(error.service) in \(error.searchedContainers.first ?? container) or an ancestor."
        case .circularDependency
            where loop(in: error.path).count >= 3 || ResolutionError.collectionLoopAdvice(closing: error.path) != nil:
            // A loop of two services or more, or a service in its own collection, worded as the static DI-CYCLE:
            // the loop alone, without the steps that led the build to it (the error's own advice, which names the
            // same step, would only repeat it).
            let loop = Array(loop(in: error.path))
            let names = loop.map(\.description)
            return Finding(
                id: .cycle, severity: .error, service: names[0], container: container,
                message: "\(names[0]) depends on itself: \(names.joined(separator: " → ")).", path: loop,
                help: GraphAnalysis.cycleHelp(closing: loop)
            )
        case .circularDependency, .depthLimitExceeded:
            id = .cycle
            help = "Break the cycle: resolve one side lazily (a factory closure or @LazyInject), or move what "
                + "both need into a service of its own."
        case .typeMismatch:
            id = .alias
            help = "Make the implementation conform to the alias type, or remove the .implements(_:) call."
        case .scopeUnavailable:
            id = .matching
            help = "Resolve it from a container with the tag its lifetime needs, or change its lifetime."
        case .asyncResolutionRequired:
            // About the synchronous code that asked (as the static DI-ASYNC is, which this one then repeats).
            let asker = error.path.dropLast().last { !$0.isDeferred }
            return Finding(
                id: .async, severity: .error, service: asker?.description ?? error.service, container: container,
                message: error.message, path: error.path, suggestions: error.suggestions,
                help: "Make the code that asks for \(error.service) async (registerAsync, or an AsyncProvider instead "
                    + "of a Lazy or a Provider), or give it a synchronous factory."
            )
        default:
            id = .build
            help = error.path.last?.location.map { "Fix the factory registered at \($0)." }
                ?? "Fix the factory of \(error.service)."
        }
        return Finding(
            id: id, severity: .error, service: error.service, container: container, message: error.message,
            path: error.path, suggestions: error.suggestions, help: given ?? help
        )
    }
}
