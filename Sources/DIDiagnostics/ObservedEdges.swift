import DICore

/// Dependencies recorded while factories ran (`validate(instantiating: true)`), by the registration whose
/// factory resolved them.
struct ObservedEdges: Sendable {
    /// What each registration's factory resolved, in order, without repeats.
    var dependencies: [ObjectIdentifier: [DependencyRef]] = [:]
    /// Registrations whose factory ran: their edges are known even when they resolved nothing.
    var built: Set<ObjectIdentifier> = []
    /// The type of the instance each registration built, when it was built (the implementation behind a
    /// protocol).
    var implementations: [ObjectIdentifier: Any.Type] = [:]
    /// The optionals a factory asked for (`T?`), as the dependent's registration and `T`'s key: `T`'s own resolve,
    /// which follows, is part of the optional's.
    var optionals: Set<OptionalEdge> = []
    /// Which services building in copies tried: none (no instantiation), the synchronous ones
    /// (`validate(instantiating: true)`) or all (`validateAsync()`).
    var tried = Tried.none

    enum Tried: Sendable {
        case none, synchronous, all
    }

    mutating func add(_ dependency: DependencyRef, to registration: ObjectIdentifier) {
        var list = dependencies[registration] ?? []
        if !list.contains(where: { $0.key == dependency.key }) { list.append(dependency) }
        dependencies[registration] = list
    }
}

/// A factory's request for `T?`: the registration whose factory asked, and `T`'s key.
struct OptionalEdge: Hashable, Sendable {
    let dependent: ObjectIdentifier
    let key: RegistrationKey

    init(_ dependent: ObjectIdentifier, _ key: RegistrationKey) {
        self.dependent = dependent
        self.key = key
    }
}
