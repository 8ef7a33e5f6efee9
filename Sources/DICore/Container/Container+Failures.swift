/// The failure path of resolution: the errors the fast and slow paths throw, each naming the problem and the
/// way out. Everything here runs only once something has gone wrong.
extension Container {
    /// A factory's own error becomes `factoryFailed` at the step that threw; resolution errors pass through.
    ///
    /// A cycle stays a cycle even when it passes through code that wraps resolution errors in errors of its
    /// own (a property wrapper's `InjectionError`): the loop, not the wrapping, is what the caller must fix.
    static func wrap(_ error: any Error, path: @autoclosure () -> [PathElement]) -> any Error {
        if error is ResolutionError { return error }
        if let wrapped = (error as? any ResolutionErrorWrapper)?.resolutionError,
            wrapped.code == .circularDependency
        {
            return wrapped
        }
        return ResolutionError.factoryFailed(error, path: path())
    }

    /// The `circularDependency` error of building `registration` in this container again, after `path`.
    /// `itself` says that the build asking for it is its own: its factory resolved its own key and found
    /// itself, which is what a factory meant to wrap an ancestor's registration of that key (a decorator) does.
    func cycleError(_ registration: Registration, requested: Any.Type, after path: [PathElement], itself: Bool)
        -> ResolutionError
    {
        let element = PathElement(registration, requested: requested, in: self)
        guard itself else { return .cycle(path: path + [element]) }
        return .selfCycle(path: path + [element], wrapping: ancestor(alsoRegistering: registration)?.name)
    }

    /// The nearest ancestor of the container that holds `registration`, as seen from this one, that registers
    /// the same key too: the registration that `registration` shadows here.
    private func ancestor(alsoRegistering registration: Registration) -> Container? {
        let key = registration.key
        let holder = nearest { $0.registry.registration(for: key) === registration }?.object
        return holder?.parent?.nearest { $0.registry.registration(for: key) != nil }?.object
    }

    func closedError(_ type: Any.Type, name: String?) -> ResolutionError {
        reportResolvedAfterTest(type, name: name)
        // The path's last step names the container whose close refused the lookup: the outermost closed one it
        // reads through (whose close closed the rest), or this one.
        let refusing = registrationSources.last { $0.container.isClosed }?.container ?? self
        return ResolutionError(
            code: .containerClosed,
            requestedType: type,
            name: name,
            path: ResolutionStack.current.path(then: PathElement(missing: type, name: name, in: refusing)),
            detail: closedDetail(.resolve)
        )
    }

    /// The `containerClosed` error of a resolve that began before this container, which holds the instance of
    /// `registration`, closed, and ended after: the instance built meanwhile is disposed, not handed out, by
    /// the builder, or by the close when the resolve waited for another's build. The step is the registration's,
    /// which was found and built: "not looked up" would send the reader after the lookup.
    func closedWhileBuildingError(_ requested: Any.Type, _ registration: Registration) -> ResolutionError {
        reportResolvedAfterTest(requested, name: registration.key.name)
        let detail = switch closedCause ?? .itself {
        case .itself where testing == nil:
            "The resolve began before close(), and the instance built meanwhile has been disposed instead of "
                + "handed out. Close \(name) only once the work that resolves from it is done: await the tasks "
                + "that use it, then close it."
        case .ancestor(let ancestor) where ancestor.testing == nil:
            "\(closedWithAncestor(ancestor)); the instance built meanwhile has been disposed instead of handed out. "
                + "Close \(ancestor.name) only once nothing uses its children (a server's app container: once the "
                + "server has stopped taking requests)."
        default:
            closedDetail(.resolve)
        }
        return ResolutionError(
            code: .containerClosed,
            requestedType: requested,
            name: registration.key.name,
            path: ResolutionStack.current.path(then: PathElement(registration, requested: requested, in: self)),
            detail: detail
        )
    }

    /// What a closed container refuses.
    enum Refusal {
        case resolve, register, apply
    }

    /// Whose close makes this container refuse: its own, an ancestor's (closing a container closes its
    /// descendants), or, through a test container, its base's (or an ancestor of the base's).
    enum ClosedCause {
        /// `close()` was called on this container.
        case itself
        /// `ancestor` closed, and this container with it.
        case ancestor(Container)
        /// The lookup reached `closed` through `test`, a test container made from `base` (or hanging below it).
        case base(test: Container, base: Container, closed: Container)
    }

    /// Whether this container, one of its ancestors, or — through a test container — a base whose graph it
    /// resolves is closed. A lookup that found nothing while an ancestor was closing — its registrations gone
    /// with its close, its descendants not closed yet — was refused by that close: `containerClosed`, not
    /// `notRegistered` (and not `nil` for an optional). So was one that reached a closed base.
    ///
    /// One read section around the walk, as the resolve fast path reads the published tables: a
    /// `resolveIfRegistered` that finds nothing pays this walk on every call.
    var isClosedOnItsPath: Bool {
        let section = TableReclamation.enter()
        defer { TableReclamation.leave(section) }
        var current = Optional(Unsafe.Unowned(self))
        while let container = current {
            if container.with({ $0.registry.tableInSection().table.with { $0.isClosed } }) { return true }
            current = container.with { $0.parentReference ?? $0.testing.map { Unsafe.Unowned($0.base) } }
        }
        return false
    }

    /// Whose close this container's lookups meet; `nil` when none is closed on its path. The outermost closed
    /// container of its own tree is named, since closing it closed the rest; a test container is not closed
    /// with its base, so a closed base is named only when nothing of the container's own tree is closed.
    var closedCause: ClosedCause? {
        // The containers a lookup reads beyond this one; a test container owns what it resolves through its base.
        let beyond = registrationSources.dropFirst()
        if let ancestor = beyond.last(where: { $0.owner === $0.container && $0.container.isClosed })?.container {
            return .ancestor(ancestor)
        }
        if isClosed { return .itself }
        // What a test container resolves through its base is owned by it or by one of its views.
        guard let closedBeyond = beyond.last(where: \.container.isClosed),
            case let test = closedBeyond.owner.testContainerOfView, let base = test.testing?.base
        else { return nil }
        return .base(test: test, base: base, closed: closedBeyond.container)
    }

    /// Why this closed container (or this container, whose ancestor closed) refuses `refusal`, and the way
    /// out. Nobody may have called `close()` on it: closing a container closes its descendants, and a child
    /// made afterwards is closed from the start — the request container of a server whose app container closed
    /// while requests were still arriving. The outermost closed ancestor is named then, since closing it
    /// closed the rest. A test container is not closed with its base: a lookup that reached its closed base
    /// is refused with that base named.
    func closedDetail(_ refusal: Refusal) -> String {
        // A view refuses as its test container does (see `TestContainerLink`).
        if case let test = testContainerOfView, test !== self { return test.closedDetail(refusal) }
        switch closedCause ?? .itself {
        case .base(let test, let base, let closed):
            return "\(closedBaseProblem(test: test, base: base, closed: closed)) Close \(closed.name) only once "
                + "the tests that use it are done, or make the test container from a container that is still open."
        case .itself where testing != nil:
            // A refused resolve has already said that the container is closed; a registration has not.
            let lead = refusal == .resolve ? "It is" : "\(name) is closed: it is"
            return "\(lead) a test container, closed when its test ended: \(Self.outlivedItsTest)"
        case .ancestor(let ancestor) where ancestor.testing != nil:
            return "\(closedWithAncestor(ancestor)), the test container of a test that has ended, and closing it "
                + "closed its descendants: \(Self.outlivedItsTest)"
        case .itself:
            switch refusal {
            case .resolve:
                return "It was closed with close(); resolve from a container that is still open (a child made after "
                    + "close() is closed too)."
            case .register:
                return "\(name) is closed. Register before calling close(), or register into a container that is "
                    + "still open."
            case .apply:
                return "\(name) is closed. Apply the assemblies before calling close(), or to a container that is "
                    + "still open."
            }
        case .ancestor(let ancestor):
            let wayOut = switch refusal {
            case .resolve: "Resolve from"
            case .register: "Register into"
            case .apply: "Apply the assemblies to"
            }
            return "\(closedWithAncestor(ancestor)): closing a container closes its descendants, also those made "
                + "after it closed. \(wayOut) a container that is still open, and close \(ancestor.name) only once "
                + "nothing uses its children (a server's app container: once the server has stopped taking requests)."
        }
    }

    /// What a diagnostic of this container (`validate()`, `graph()`, `explain(_:)`) says instead of describing
    /// a graph that a close took away, and the way out; `nil` when nothing on its path is closed.
    package var closedDiagnosis: (problem: String, help: String)? {
        switch closedCause {
        case nil:
            return nil
        case .itself:
            return (
                "\(name) is closed: close() dropped its registrations, so it resolves nothing and has no graph to "
                    + "check.",
                "Validate before calling close() (at start-up, once everything is registered), or validate a "
                    + "container that is still open."
            )
        case .ancestor(let ancestor):
            return (
                "\(closedWithAncestor(ancestor)): closing a container closes its descendants, so \(name) resolves "
                    + "nothing and has no graph to check.",
                "Validate before closing \(ancestor.name), or validate a container that is still open."
            )
        case .base(let test, let base, let closed):
            return (
                closedBaseProblem(test: test, base: base, closed: closed),
                "Close \(closed.name) only once the tests that use it are done, or make the test container from a "
                    + "container that is still open."
            )
        }
    }

    /// Why a test's container is used after the test: the way out, as DITesting's leaked-work report words it.
    private static let outlivedItsTest = "work started by the test (a Task, a callback) outlived it. Await that work "
        + "before the test returns, or cancel it."

    /// "feature is closed, and so is its ancestor app", or "feature's ancestor app is closed, and feature is
    /// closing with it".
    private func closedWithAncestor(_ ancestor: Container) -> String {
        isClosed ? "\(name) is closed, and so is its ancestor \(ancestor.name)"
            : "\(name)'s ancestor \(ancestor.name) is closed, and \(name) is closing with it"
    }

    /// Why a lookup through `test`, made from `base`, meets the closed `closed`.
    private func closedBaseProblem(test: Container, base: Container, closed: Container) -> String {
        let subject = test === self ? "\(name) is a test container made from \(base.name)"
            : "\(name) hangs below the test container \(test.name), made from \(base.name)"
        let state = if closed === base {
            "\(base.name) is closed"
        } else if base.sees(closed) {
            "\(base.name)'s ancestor \(closed.name) is closed, and \(base.name) is closing with it"
        } else {
            // Reached through the base's own base: the base is a test container too.
            "\(base.name) resolves through \(closed.name), which is closed"
        }
        return "\(subject), and \(state): a closed container's registrations are gone, so the test container "
            + "cannot resolve its graph."
    }

    func aliasMismatch(_ alias: Registration, target: Registration, value: Any) -> ResolutionError {
        ResolutionError(
            code: .typeMismatch,
            requestedType: alias.serviceType,
            name: alias.key.name,
            path: ResolutionStack.current.path(then: PathElement(alias, requested: alias.serviceType, in: self)),
            detail: Self.aliasMismatchFacts(alias, target: target, value: value) + " "
                + Self.aliasMismatchAdvice(alias, value: value)
        )
    }

    /// What an alias whose target's instance (`value`) is not of the alias type was declared as, and built.
    package static func aliasMismatchFacts(_ alias: Registration, target: Registration, value: Any) -> String {
        "\(target.displayName) (registered at \(target.location)) was declared to implement "
            + "\(ServiceName.readable(alias.serviceType)) at \(alias.location), but its instance, a "
            + "\(ServiceName.readable(type(of: value))), "
            + (TypeKind(alias.serviceType) == .existential ? "does not conform." : "is not of that type.")
    }

    /// The way out of an alias whose target's instance (`value`) is not of the alias type: the instance's type
    /// made to conform to the protocol (`Clock`, not `any Clock`) or to inherit from the class, or the alias
    /// removed.
    package static func aliasMismatchAdvice(_ alias: Registration, value: Any) -> String {
        let instance = ServiceName.readable(type(of: value))
        let aliasType = ServiceName.readable(alias.serviceType)
        let remove = "remove .implements(\(ServiceName.metatype(alias.serviceType))) at \(alias.location)"
        switch TypeKind(alias.serviceType) {
        case .existential:
            return "Make \(instance) conform to \(ServiceName.protocols(alias.serviceType)), or \(remove)."
        case .class:
            return "Make \(instance) a subclass of \(aliasType), or \(remove)."
        case .value:
            return "Only \(aliasType) itself is \(aliasType): \(remove), and register \(aliasType) on its own."
        }
    }

    /// The `notRegistered` error for `key`, with what is needed to suggest close matches later; or
    /// `argumentMismatch` when the service is registered, but with runtime arguments.
    func missing(_ key: RegistrationKey, _ type: Any.Type, checkingArguments: Bool = true) -> ResolutionError {
        // Closed while the lookup ran, or an ancestor was (the registrations went with the close): closed, not
        // missing.
        if isClosedOnItsPath { return closedError(type, name: key.name) }
        if checkingArguments, let mismatch = argumentMismatchIfRegisteredOtherwise(key, type) { return mismatch }
        let element = PathElement(missing: type, name: key.name, in: self)
        return ResolutionError(
            code: .notRegistered,
            requestedType: type,
            name: key.name,
            path: ResolutionStack.current.path(then: element),
            context: LookupContext(container: self, key: key, type: type)
        )
    }

    /// `asyncResolutionRequired` for `registration` (found in this container), asked for synchronously.
    ///
    /// The way out depends on who asked: a top-level request awaits `resolveAsync` (`resolveAllAsync` for
    /// `resolveAll`); a dependent's synchronous factory (which `resolveAsync` of the dependent runs too) or an
    /// `All<T>` being injected cannot, and the dependent must change. (A `Lazy` or `Provider` of it is refused when
    /// injected: `asyncOnly(_:for:_:name:origin:)`.)
    ///
    /// - Parameter all: What asked for every registration of the type at once, if that is how it was asked for.
    func asyncResolutionRequired(_ registration: Registration, requested type: Any.Type, inAll all: AllAsker? = nil)
        -> ResolutionError
    {
        let path = ResolutionStack.current.path(then: PathElement(registration, requested: type, in: self))
        let registered = "It was registered with registerAsync at \(registration.location)"
        let builder = ServiceName.describe(registration.serviceType, name: registration.key.name)
        let key = ServiceName.key(type, name: registration.key.name)
        let dependent = LookupContext.Dependent(of: path)
        let detail: String
        switch (all, dependent) {
        case (.collection(let collection)?, _):
            let owner = dependent.map { "\($0.service) (\($0.location))" } ?? "its owner"
            detail = "\(registered), and \(ServiceName.readable(collection)) builds every registration synchronously "
                + "when it is injected: register \(owner) with registerAsync and resolve them there with "
                + "`try await r.resolveAllAsync(\(ServiceName.metatype(type)))`, or give \(builder) a synchronous "
                + "factory."
        case (.resolveAll?, _):
            detail = "\(registered), and resolveAll builds every registration synchronously: call "
                + "`try await resolveAllAsync(\(ServiceName.metatype(type)))` from an async context (in a factory, "
                + "one registered with registerAsync)."
        case (nil, let dependent?):
            detail = "\(registered), and the factory of \(dependent.service) (\(dependent.location)) resolves it "
                + "synchronously, also under resolveAsync: register \(dependent.service) with registerAsync and "
                + "resolve it there with `try await r.resolveAsync(\(key))`, inject "
                + "\(ServiceName.asyncProvider(of: type)) into it, or give \(builder) a synchronous factory."
        case (nil, nil):
            detail = "\(registered); call `try await resolveAsync(\(key))` from an async context."
        }
        return ResolutionError(
            code: .asyncResolutionRequired,
            requestedType: type,
            name: registration.key.name,
            path: path,
            detail: detail
        )
    }

    /// `argumentMismatch` for `registration` (found in this container), which takes runtime arguments, asked
    /// for without them.
    func argumentsRequired(_ registration: Registration, requested type: Any.Type) -> ResolutionError {
        ResolutionError(
            code: .argumentMismatch,
            requestedType: type,
            name: registration.key.name,
            path: ResolutionStack.current.path(then: PathElement(registration, requested: type, in: self)),
            detail: "It takes runtime arguments (\(registration.argumentList)); pass them with "
                + "resolve(_:\(registration.argumentLabel):)."
        )
    }
}
