/// A type every container can resolve with no registration of its own, because it is made from the
/// registration of another type: `Optional<T>` (`nil` when nothing is registered for `T`) and the relationship
/// types (`Lazy<T>`, `Provider<T>`, `All<T>`).
///
/// A failed lookup asks for this conformance once, before it reports `notRegistered`; a registration under
/// the type itself always wins.
protocol ImplicitService {
    /// Makes the value for a request to `container` under `name`.
    static func resolveImplicitly(from container: Container, name: String?) throws -> Self
}

extension Optional: ImplicitService {
    static func resolveImplicitly(from container: Container, name: String?) throws -> Self {
        // `Lazy<T>?` is nil only when nothing is registered for `T`.
        if let relationship = Wrapped.self as? any RelationshipService.Type {
            guard relationship.isAvailable(in: container, name: name) else { return nil }
            return try container.resolve(Wrapped.self, name: name)
        }
        return try container.resolveIfRegistered(Wrapped.self, name: name, mayBeRelationship: false)
    }
}

extension RelationshipService {
    static func resolveImplicitly(from container: Container, name: String?) throws -> Self {
        try make(from: container, name: name)
    }
}
