import DICore

extension Container {
    /// Builds an `async` registration (found in `owner`) for a request to this container; returns the
    /// type of the instance.
    @discardableResult
    func instantiateAsync(_ registration: Registration, from owner: Container) async throws -> Any.Type {
        let (target, targetOwner) = try Self.builder(of: registration, in: owner)
        let box = try await instanceBoxAsync(of: target, from: targetOwner, requested: registration.serviceType)
        try checkAlias(registration, target: target, box: box, owner: owner)
        return type(of: target.body.unbox(box))
    }

    /// Builds `registration` (found in `owner`) for a request to this container, by the engine's own path;
    /// returns the type of the instance.
    @discardableResult
    func instantiate(_ registration: Registration, from owner: Container) throws -> Any.Type {
        let (target, targetOwner) = try Self.builder(of: registration, in: owner)
        let box = try instanceBox(of: target, from: targetOwner, requested: registration.serviceType)
        try checkAlias(registration, target: target, box: box, owner: owner)
        return type(of: target.body.unbox(box))
    }

    /// The registration that builds `registration`'s instances (found in `owner`), or the engine's error
    /// when an alias names nothing.
    private static func builder(of registration: Registration, in owner: Container) throws
        -> (Registration, Container)
    {
        if let found = owner.builder(of: registration) { return found }
        _ = try owner.resolve(registration.serviceType, name: registration.name)
        return (registration, owner)
    }

    /// Throws ``AliasMismatch`` when `registration` is an alias its target's instance (in `box`) does not
    /// conform to.
    private func checkAlias(_ registration: Registration, target: Registration, box: AnyObject, owner: Container)
        throws
    {
        if target !== registration, let alias = registration.body as? any AliasChecking {
            let value = target.body.unbox(box)
            guard alias.accepts(value) else {
                throw AliasMismatch(
                    error: ResolutionError(
                        code: .typeMismatch, requestedType: registration.serviceType, name: registration.name,
                        path: [PathElement(registration, requested: registration.serviceType, in: owner)],
                        detail: Container.aliasMismatchFacts(registration, target: target, value: value)
                    ),
                    help: Container.aliasMismatchAdvice(registration, value: value)
                )
            }
        }
    }
}

/// An alias whose target's instance does not conform, found by building it: the error says what was declared
/// and built, `help` the way out, which the finding prints on a line of its own (a resolve's error says both).
struct AliasMismatch: Error {
    let error: ResolutionError
    let help: String
}

extension AliasBox: AliasChecking {
    func accepts(_ value: Any) -> Bool { cast(value) != nil }
}
