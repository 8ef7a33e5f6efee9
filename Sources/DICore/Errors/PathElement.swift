/// One step of a resolution path: the service that was asked for, where it was found and where it was
/// registered.
public struct PathElement: Sendable, CustomStringConvertible {
    /// The type as it was requested (an alias type when resolved through `.implements`).
    public internal(set) var type: Any.Type
    /// The registration name, `nil` for an unnamed registration.
    public let name: String?
    /// The container that built it (whose resolver its factory received), or that was asked when nothing
    /// was found.
    public internal(set) var container: String?
    /// The container the registration was made in, when it is known; it differs from ``container`` for a
    /// `.transient` or `.scoped` service registered in an ancestor of the container that built it.
    public let registeredIn: String?
    /// Where the registration was made, `nil` when nothing was found.
    public let location: SourceLocation?
    /// The lifetime of the registration.
    public let scope: String?
    /// True for a step of a build that another thread or task is running (a cycle across threads).
    public let onAnotherThread: Bool
    /// True for the step of a relationship (`Lazy`, `Provider`) used after its owner was built: the steps
    /// after it ran when the relationship was used (the first `value`, a call), not when the owner was made.
    /// Its `scope` is the relationship's kind (`deferred`, `per-call`, `async per-call`, `assisted`).
    public private(set) var isDeferred = false
    let keyPathName: String?
    /// Whether an `async` factory builds it (`registerAsync`), so that only an `AsyncProvider` defers it.
    package private(set) var isAsync = false
    /// Whether its lifetime found no container to build it in (a `.matching(tag)` service with no container of
    /// its tag on the way): ``container`` is then the one that asked.
    package private(set) var isUnplaced = false
    /// Whether it was built as one of the services of an `All<T>` (or a `resolveAll`) that the step before it
    /// takes: that step needs it only through the collection, so a loop is not broken there by a `Lazy` or a
    /// `Provider`.
    package private(set) var isCollected = false

    package init(_ registration: Registration, requested: Any.Type, in container: Container?,
                 onAnotherThread: Bool = false) {
        type = requested
        name = registration.key.name
        self.container = container?.name
        registeredIn = container.flatMap { Self.owner(of: registration, seenFrom: $0) }?.name
        location = registration.location
        scope = registration.lifetimeName
        keyPathName = registration.keyPathName
        self.onAnotherThread = onAnotherThread
        isAsync = registration.isAsync
    }

    /// The container among `container` and its ancestors that holds `registration`; `nil` when none does
    /// (it was replaced since, or a lifetime built it in a container above the one that registered it).
    /// Only errors build path elements, so this walk never runs on a successful resolve.
    private static func owner(of registration: Registration, seenFrom container: Container) -> Container? {
        container.nearest { $0.registry.registration(for: registration.key) === registration }?.object
    }

    /// Where the row of this step says it is: `in app`, or `built in checkout, registered in app` when the
    /// container that built it is not the one it was registered in.
    var place: String {
        if onAnotherThread { return "on another thread" }
        let built = container ?? "?"
        if isUnplaced { return registeredIn.map { "asked in \(built), registered in \($0)" } ?? "asked in \(built)" }
        guard let registeredIn, registeredIn != built else { return "in \(built)" }
        return "built in \(built), registered in \(registeredIn)"
    }

    /// The same step, asked for as `type` (an alias of the registration's type).
    package func asked(as type: Any.Type) -> PathElement {
        var asked = self
        asked.type = type
        return asked
    }

    /// The same step, found with no place to be built in: its row says where it was asked for.
    package func unplaced() -> PathElement {
        var unplaced = self
        unplaced.isUnplaced = true
        return unplaced
    }

    /// The same step, built as one of the services of an `All<T>` (or a `resolveAll`) that the step before it takes.
    package func collected() -> PathElement {
        var collected = self
        collected.isCollected = true
        return collected
    }

    /// The step of a relationship of `kind` to `type` (`Lazy<Database>`), made from `container` at `location`.
    package init(relationship type: Any.Type, kind: Dependency.Kind, name: String?, in container: String,
                 location: SourceLocation) {
        self.type = type
        self.name = name
        self.container = container
        registeredIn = nil
        self.location = location
        scope = kind.name
        keyPathName = nil
        onAnotherThread = false
        isDeferred = true
    }

    /// The same step, placed in `container` (the name of the container it is built in).
    func placed(in container: String?) -> PathElement {
        var placed = self
        placed.container = container
        return placed
    }

    package init(missing type: Any.Type, name: String?, in container: Container) {
        self.type = type
        self.name = name
        self.container = container.name
        registeredIn = nil
        location = nil
        scope = nil
        keyPathName = nil
        onAnotherThread = false
    }

    /// `Database "primary"`, or `\.clock` for a keypath registration.
    public var description: String {
        if let keyPathName { return "\\.\(keyPathName)" }
        return ServiceName.describe(type, name: name)
    }
}

extension [PathElement] {
    /// `ViewModel → Repository → Logger "primary"`.
    var arrowed: String { map(\.description).joined(separator: " → ") }
}
