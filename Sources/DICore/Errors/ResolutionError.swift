/// A service could not be resolved. Its description is the whole diagnosis: what was asked, the path from
/// the top-level request, the containers searched, where each registration on the path was made, close
/// matches, and the way out.
///
/// ```text
/// ResolutionError.notRegistered: Cannot resolve Logger "primary": nothing is registered under that key.
///   path:      ViewModel → Database → Logger "primary"
///     ViewModel          transient  built in checkout, registered in app  App/Features.swift:14
///     Database           singleton  in app                                App/Setup.swift:9
///     Logger "primary"   not found
///   searched:  checkout → app
///   close matches:
///     - Logger is registered without a name in app (App/Setup.swift:7): resolve it without `name:`.
///   fix:       register it in app or an ancestor: try container.register(Logger.self, name: "primary") { r in … }
/// ```
///
/// Close matches are ranked, likeliest first (the smallest edit distance between names first), and the
/// `fix:` line follows the first one when it is likely enough: `resolve(Database.self, name: "primray")`
/// suggests `pass name: "primary"`, not registering the misspelled name.
///
/// Building the text is left to `description`, so a failed lookup stays cheap for code that only checks
/// `code`.
public struct ResolutionError: Error, Sendable, CustomStringConvertible {
    /// What went wrong; a struct so that codes can be added without breaking `switch`es.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// Every code, so that the module can switch over them exhaustively; callers compare with `==`, which
        /// lets later versions add codes without breaking their code.
        package enum Kind: String, Sendable {
            case notRegistered
            case circularDependency
            case typeMismatch
            case argumentMismatch
            case asyncResolutionRequired
            case factoryFailed
            case containerClosed
            case requiredKeyMissing
            case depthLimitExceeded
            case scopeUnavailable
        }

        /// Which code this is.
        package let kind: Kind

        /// The code's name, as printed: `notRegistered`.
        public var name: String { kind.rawValue }

        /// Nothing is registered under the requested key in the asking container or its ancestors.
        public static let notRegistered = Code(kind: .notRegistered)
        /// Building the service needs the service itself.
        public static let circularDependency = Code(kind: .circularDependency)
        /// The instance is not of the type that was asked for (`resolve(_:as:)`, an alias).
        public static let typeMismatch = Code(kind: .typeMismatch)
        /// The service is registered, but with other runtime argument types.
        public static let argumentMismatch = Code(kind: .argumentMismatch)
        /// The service has an `async` factory; use `resolveAsync`.
        public static let asyncResolutionRequired = Code(kind: .asyncResolutionRequired)
        /// The factory threw; see `underlying`.
        public static let factoryFailed = Code(kind: .factoryFailed)
        /// The container was closed.
        public static let containerClosed = Code(kind: .containerClosed)
        /// A `ServiceKeys` key declared `.required()` was never provided.
        public static let requiredKeyMissing = Code(kind: .requiredKeyMissing)
        /// The dependency chain is deeper than the resolver follows.
        public static let depthLimitExceeded = Code(kind: .depthLimitExceeded)
        /// The lifetime cannot place the instance here (for example no container with the tag of `.matching`).
        public static let scopeUnavailable = Code(kind: .scopeUnavailable)

        /// The code's name, as printed: `notRegistered`.
        public var description: String { kind.rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// The type that could not be resolved (the innermost step of the path).
    public internal(set) var requestedType: Any.Type
    /// The name it was asked for under, if any.
    public let name: String?
    /// The path from the top-level request to the failing step, inclusive.
    public internal(set) var path: [PathElement]
    /// The containers searched, asking container first; empty when the failure was not a lookup.
    public var searchedContainers: [String] {
        listedContainers.isEmpty ? context?.searchedContainers ?? [] : listedContainers
    }
    /// The containers searched, when the error lists them itself rather than through `context`.
    private let listedContainers: [String]
    /// The error the factory threw, for `factoryFailed`.
    public let underlying: (any Error)?
    /// A sentence about this particular failure, added to the headline.
    public internal(set) var detail: String?
    let context: LookupContext?
    /// How `detail` reads along another path, for an error whose way out depends on the steps before the failure:
    /// a relationship used later puts its owner's steps in front of the path (`deferring`), and the advice is then
    /// about them. Captures names, never a container.
    package var detailAlong: (@Sendable ([PathElement]) -> String)?
    /// The container the top-level request was made to, when a kept instance's build took the lookup elsewhere
    /// (its path then starts in the container that builds it); set as the error leaves that request.
    private(set) var requestContainer: String?

    package init(
        code: Code,
        requestedType: Any.Type,
        name: String?,
        path: [PathElement],
        searchedContainers: [String] = [],
        underlying: (any Error)? = nil,
        detail: String? = nil,
        detailAlong: (@Sendable ([PathElement]) -> String)? = nil,
        context: LookupContext? = nil
    ) {
        self.code = code
        self.requestedType = requestedType
        self.name = name
        self.path = path
        self.listedContainers = searchedContainers
        self.underlying = underlying
        self.detail = detail ?? detailAlong?(path)
        self.detailAlong = detailAlong
        self.context = context
    }

    /// The requested service as people write it: `Logger "primary"`.
    public var service: String {
        path.last?.description ?? ServiceName.describe(requestedType, name: name)
    }

    /// Registrations that were probably meant, as sentences; computed when asked for.
    public var suggestions: [String] { context?.suggestions() ?? [] }

    /// The container of another tree that registers the service, when that is the likeliest close match (a
    /// lookup in `Container.shared`'s tree, for the property wrappers' first line).
    package var likeliestOtherTree: String? { context?.likeliestOtherTree }

    /// The visible registration that was probably meant, when there is one, with the container that holds it: for
    /// a property wrapper's way out, which is written in the wrapper.
    package var likeliestRegistration: (registration: Registration, container: String)? {
        context?.closeRegistrations().first
    }

    /// The headline: one sentence naming the service and what went wrong.
    public var message: String {
        let headline: String
        switch code {
        case .notRegistered: headline = "Cannot resolve \(service): nothing is registered under that key."
        case .circularDependency: headline = "Cannot resolve \(service): it depends on itself: \(path.arrowed)."
        case .typeMismatch: headline = "Cannot resolve \(service): the instance has the wrong type."
        case .argumentMismatch:
            headline = "Cannot resolve \(service): it is registered, but with other runtime arguments than these."
        case .asyncResolutionRequired:
            headline = "Cannot resolve \(service) synchronously: its factory is async."
        case .factoryFailed:
            headline = "Cannot resolve \(service): its factory threw \(underlying.map { "\($0)" } ?? "an error")."
        case .containerClosed:
            // A refused lookup's step names the container whose close refused it, which the asker may not be.
            if let refused = path.last, refused.location == nil, let container = refused.container {
                headline = "Cannot resolve \(service): \(container) is closed."
            } else if let relationship = path.last, relationship.isDeferred, let container = relationship.container {
                // A relationship used after the container it was made in was released (freed, not closed).
                headline = "Cannot resolve \(service): \(container), the container it was made in, is gone."
            } else if let built = path.last, let container = built.container {
                // Found and built, and refused by a close that came meanwhile.
                headline = "Cannot resolve \(service): \(container) was closed while it was being built."
            } else {
                headline = "Cannot resolve \(service): the container is closed."
            }
        case .requiredKeyMissing:
            headline = "Cannot resolve \(service): the key is declared .required() and nothing provides it."
        case .depthLimitExceeded: headline = "Cannot resolve \(service): the dependency chain is too deep."
        case .scopeUnavailable: headline = "Cannot resolve \(service): its lifetime has no place here."
        default: headline = "Cannot resolve \(service)."
        }
        guard let detail else { return headline }
        return headline + " " + detail
    }

    /// How many steps of a path `description` prints; of a longer one, the first and the last half of them.
    static let printedSteps = 16

    /// The whole diagnosis: the headline, the path with where each step was registered, the containers
    /// searched, close matches and the way out.
    public var description: String {
        description(fix: context?.fix(code: code, neededBy: LookupContext.Dependent(of: path)))
    }

    /// The whole diagnosis with `fix` as its way out: a property wrapper's request is changed in the wrapper, not
    /// in a `resolve` call.
    package func description(fix: String?) -> String {
        var lines = ["ResolutionError.\(code): \(message)"]
        // A chain that reached the depth limit has hundreds of steps: its ends say where it starts and where
        // it loops, the middle is left out.
        let (head, omitted, tail) = path.count > Self.printedSteps
            ? (Array(path.prefix(Self.printedSteps / 2)), path.count - Self.printedSteps,
               Array(path.suffix(Self.printedSteps / 2)))
            : (path, 0, [])
        let gap = "… \(omitted) more steps …"
        if path.count > 1 || code == .circularDependency {
            let arrowed = omitted == 0 ? path.arrowed : "\(head.arrowed) → \(gap) → \(tail.arrowed)"
            lines.append("  path:      \(arrowed)")
        }
        let printed = head + tail
        let width = printed.map { $0.description.count }.max() ?? 0
        let places = printed.map(\.place)
        let placeWidth = places.map(\.count).max() ?? 0
        let scopeWidth = printed.map { ($0.scope ?? "").count }.max() ?? 0
        for (index, (step, place)) in zip(printed, places).enumerated() {
            if omitted > 0, index == head.count { lines.append("    \(gap)") }
            let label = step.description.padded(to: width)
            if let location = step.location {
                let scope = (step.scope ?? "").padded(to: scopeWidth)
                lines.append("    \(label)   \(scope)  \(place.padded(to: placeWidth))  \(location)")
            } else if code == .containerClosed, let container = step.container {
                // Refused before the lookup: "not found" would send the reader after a registration.
                lines.append("    \(label)   not looked up: \(container) is closed")
            } else {
                lines.append("    \(label)   not found")
            }
        }
        if !searchedContainers.isEmpty {
            lines.append("  searched:  \(searchedContainers.joined(separator: " → "))")
        }
        if let note = containerSwitchNote {
            lines.append("  note:      \(note)")
        }
        let suggestions = suggestions
        if !suggestions.isEmpty {
            lines.append("  close matches:")
            lines += suggestions.map { "    - \($0)" }
        }
        if let fix {
            lines.append("  fix:       \(fix)")
        }
        return lines.joined(separator: "\n")
    }
}

extension ResolutionError {
    /// When the lookup ran in another container than the top-level request, because a kept instance
    /// resolves its dependencies where it is registered, says so: the classic "my override was ignored".
    var containerSwitchNote: String? {
        guard code == .notRegistered || code == .scopeUnavailable,
              let asked = requestContainer ?? path.first?.container, let searched = searchedContainers.first,
              asked != searched,
              let owner = path.dropLast().last(where: { $0.container == searched && $0.scope != "transient" })
        else { return nil }
        let switched = "\(owner) is a \(owner.scope ?? "kept") service of \(searched), so its dependencies are "
            + "resolved in \(searched), not in \(asked) where the request started"
        guard code == .scopeUnavailable, let needed = path.last, let scope = needed.scope else {
            return switched + "; registrations in \(asked) do not apply to it."
        }
        // The lifetime's detail advises the kept service itself when it is the one that needs the tagged service:
        // the note then only says why the asker's tags did not count, without saying it twice.
        let advice = "\(owner) a lifetime no longer than \(needed)'s"
        if detail?.contains(advice) == true { return switched + ", and the tags of \(asked) are not on their way." }
        return switched + ", and the tags of \(asked) are not on their way. Give \(advice) (such as .\(scope)), so "
            + "that it is built where that tag is seen."
    }

    /// This error, thrown while placing `registration`, as it reads for a request made as `requested`: a lifetime
    /// names the step by its registration's type, and asked through an alias (`.implements`) the step is the
    /// alias's, as every other step of a path is.
    func asked(as requested: Any.Type, of registration: Registration) -> ResolutionError {
        guard code == .scopeUnavailable, requested != registration.serviceType, let last = path.last,
              last.type == registration.serviceType, last.location == registration.location
        else { return self }
        var error = self
        error.path[path.count - 1] = last.asked(as: requested)
        error.requestedType = requested
        return error
    }

    /// This error as the top-level request made to `container` throws it: it remembers where the request started.
    func requested(from container: Container) -> ResolutionError {
        var error = self
        error.requestContainer = container.name
        return error
    }

    static func cycle(path: [PathElement]) -> ResolutionError {
        let last = path.last
        return ResolutionError(
            code: .circularDependency,
            requestedType: last?.type ?? Never.self,
            name: last?.name,
            path: path,
            detailAlong: { cycleAdvice($0) }
        )
    }

    /// The way out of the cycle at the end of `path`. When the loop goes through a relationship (`B → Lazy<A> →
    /// A`), the relationship was used while the loop was being built: injecting one is not the fix, using it later
    /// is.
    static func cycleAdvice(_ path: [PathElement]) -> String {
        if let advice = eagerRelationshipAdvice(closing: path) {
            return "Break the cycle: \(advice); or move the shared part into a service both can depend on."
        }
        if let advice = collectionLoopAdvice(closing: path) { return advice }
        let index = breakableStep(closing: path)
        let need = path.indices.contains(index) ? path[index] : nil
        let target = need.map { ServiceName.readable($0.type) } ?? "the service"
        let owner = index > 0 ? "\(path[index - 1])" : "one side"
        return "Break the cycle: let \(owner) take " + (need?.isAsync == true
            // `Lazy` and `Provider` resolve synchronously, which an async factory's service refuses.
            ? "\(ServiceName.asyncProvider(of: need?.type ?? Never.self)) (resolved on each call, with try await)"
            : "Lazy<\(target)> (resolved on first read) or Provider<\(target)> (resolved on each call)")
            + " instead of \(target), and not use it while it is being built; or move the shared part into a "
            + "service both can depend on."
    }

    /// The step of the loop closing `path` whose need a `Lazy` or `Provider` can defer (the need of the step
    /// before it): the last one that is not one of the services of an `All<T>`, whose owner takes the collection,
    /// not the service. The last step when the path closes no loop, or when every need is a collection's.
    package static func breakableStep(closing path: [PathElement]) -> Int {
        guard let repeated = path.last, let start = path.firstIndex(where: { $0.description == repeated.description })
        else { return path.count - 1 }
        return path.indices[(start + 1)...].last { !path[$0].isCollected } ?? path.count - 1
    }

    /// When every need of the loop closing `path` is a collection's (`All<T>`, `resolveAll`) — most often a service
    /// registered as the type it collects, which its collection then holds too — what to do; `nil` otherwise.
    /// Worded once, for the resolve error and for `validate()`'s DI-CYCLE.
    package static func collectionLoopAdvice(closing path: [PathElement]) -> String? {
        guard let repeated = path.last, let start = path.firstIndex(where: { $0.description == repeated.description }),
              start < path.count - 1, path[(start + 1)...].allSatisfy(\.isCollected)
        else { return nil }
        let loop = path[start...]
        guard loop.count == 2 else {
            let collects = zip(loop, loop.dropFirst()).map { "\($0) collects \($1)" }.joined(separator: ", ")
            return "The loop runs through collections only (\(collects), each taking every registration of a "
                + "type, with All<…> or resolveAll): register one of them under another type than the one its "
                + "collector collects."
        }
        let type = ServiceName.readable(repeated.type)
        return "\(repeated) takes every registration of \(type) (an All<\(type)>, or resolveAll in its factory), "
            + "\(repeated) among them, so building it needs itself. Register it under a type of its own (its "
            + "concrete type, say) rather than as \(type), so that the collection does not hold it; if it must be "
            + "resolved as \(type), register the services it collects under a type of their own."
    }

    /// This error as it leaves the build of one of the services of an `All<T>` or a `resolveAll`, whose step is
    /// the `depth`th of the path (the collection's owner, if any, the one before): a loop that runs through that
    /// step gets it marked, so that its advice does not offer a `Lazy` or `Provider` in place of the collection,
    /// and says so when the owner collects itself (rather than the advice of a factory resolving its own key).
    func collected(at depth: Int) -> ResolutionError {
        guard code == .circularDependency, path.indices.contains(depth), !path[depth].isCollected,
              let repeated = path.last, let start = path.firstIndex(where: { $0.description == repeated.description }),
              start < depth
        else { return self }
        var steps = path
        steps[depth] = steps[depth].collected()
        return .cycle(path: steps)
    }

    /// When the loop at the end of `path` goes through a relationship (`A → B → Provider<A> → A`: B's factory
    /// called its `Provider<A>` while A was being built), what to do instead, without its final period; `nil`
    /// otherwise. The relationship is the break the loop was given, used too early: moving the use is the fix,
    /// not another edge. Worded once, for the resolve error and for `validate(instantiating: true)`'s DI-CYCLE.
    package static func eagerRelationshipAdvice(closing path: [PathElement]) -> String? {
        guard let repeated = path.last,
              let start = path.firstIndex(where: { $0.description == repeated.description }),
              let index = path[start...].lastIndex(where: \.isDeferred), index > start
        else { return nil }
        let (owner, relationship) = (path[index - 1], path[index])
        return "\(owner) uses its \(relationship) while \(repeated) is still being built (\(owner)'s initializer "
            + "or factory reads it), and that needs \(repeated) again. Use it later, once \(owner) is built (where "
            + "the value is first needed), not while \(owner) is being made"
    }

    /// A service whose factory resolved its own key and was given itself: the last two steps of `path` are one
    /// build. `wrapping` names the ancestor that registers the key too, when one does: the registration a
    /// decorator means to wrap, which it must resolve by a key of its own. (Resolving it from the ancestor itself,
    /// captured, would work too, but leave a test container's copy of the graph: not advised.)
    static func selfCycle(path: [PathElement], wrapping ancestor: String?) -> ResolutionError {
        let last = path[path.count - 1]
        let owner = path[path.count - 2]
        let container = last.container ?? "its container"
        let factory = owner.location.map { "The factory of \(owner) (\($0))" } ?? "The factory of \(owner)"
        let found = "\(factory) resolves \(last), which from \(container) is this same registration."
        let detail = if let ancestor {
            " To wrap the \(last) that \(ancestor) registers (a decorator), resolve the wrapped service by a key of "
                + "its own: register it in \(ancestor) as its concrete type, with "
                + ".implements(\(ServiceName.metatype(last.type))) so that the rest of the graph still finds it, and "
                + "resolve that type here."
        } else {
            " A factory builds its service rather than resolving it: build \(owner) there, or resolve another type "
                + "or name."
        }
        return ResolutionError(
            code: .circularDependency,
            requestedType: last.type,
            name: last.name,
            path: path,
            detail: found + detail
        )
    }

    static func tooDeep(path: [PathElement], limit: Int, stackExhausted: Bool = false) -> ResolutionError {
        let last = path.last
        let detail = stackExhausted
            ? "The thread's stack is nearly used up after \(path.count - 1) nested dependencies, so resolution "
                + "stopped before it could overflow. Resolve from a thread with a larger stack, or shorten the "
                + "chain (inject Lazy or Provider relationships, or split the service)."
            : "Resolution follows at most \(limit) nested dependencies (Container.resolutionDepthLimit); a chain "
                + "this long is most likely a cycle through different keys. If the chain is real, raise "
                + "Container.resolutionDepthLimit."
        return ResolutionError(
            code: .depthLimitExceeded,
            requestedType: last?.type ?? Never.self,
            name: last?.name,
            path: path,
            detail: detail
        )
    }

    static func factoryFailed(_ error: any Error, path: [PathElement]) -> ResolutionError {
        let last = path.last
        return ResolutionError(
            code: .factoryFailed,
            requestedType: last?.type ?? Never.self,
            name: last?.name,
            path: path,
            underlying: error,
            detail: "The error comes from the factory registered at \(last?.location.map { "\($0)" } ?? "?")."
        )
    }
}

extension String {
    /// The string followed by spaces up to `width` characters, for aligned columns.
    func padded(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
