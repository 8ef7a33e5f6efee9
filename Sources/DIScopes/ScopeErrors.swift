import DICore

/// The errors DIScopes raises; each message names the service, the containers and the way out.
enum ScopeErrors {
    static func weakValueType(_ registration: Registration, kind: String, in container: Container)
        -> RegistrationError
    {
        let service = registration.displayName
        return RegistrationError(
            code: .invalidScope,
            service: service,
            container: container.name,
            location: registration.location,
            message: "Cannot register \(service) with .weak in \(container.name) at \(registration.location): "
                + "\(ServiceName.readable(registration.serviceType)) is \(kind), and only class instances can be "
                + "held weakly, so "
                + "every resolve would silently build a new one. Make it a class (or register it as a "
                + "class-bound protocol such as (any Router).self), or choose .cached to keep one instance "
                + "until reset, or .transient to build one on every resolve."
        )
    }

    static func customScopeName(_ name: String, _ registration: Registration, in container: Container)
        -> RegistrationError
    {
        let service = registration.displayName
        let problem = name.isEmpty
            ? "a custom scope needs a name: diagnostics print it, and scopes are told apart by it"
            : "\"\(name)\" is the name of the built-in .\(name.hasPrefix("matching(") ? "matching(_:)" : name) "
                + "scope, and scopes are told apart by name, so reset(_:), validate() and the graph would take "
                + "this custom scope for the built-in one"
        return RegistrationError(
            code: .invalidScope,
            service: service,
            container: container.name,
            location: registration.location,
            message: "Cannot register \(service) with .custom(\"\(name)\", storage: …) in \(container.name) at "
                + "\(registration.location): \(problem). Give the custom scope a name of its own, one that says "
                + "how long its instances live (\"session\", \"request-cache\")."
        )
    }

    static func weakValueInstance(
        _ registration: Registration,
        value: Any,
        in container: Container,
        path: [PathElement]
    ) -> ResolutionError {
        let valueType = Swift.type(of: value)
        let kind: String
        if case .value(let description) = TypeKind(valueType) { kind = description } else { kind = "a value" }
        return ResolutionError(
            code: .scopeUnavailable,
            requestedType: registration.serviceType,
            name: registration.name,
            path: path + [PathElement(registration, requested: registration.serviceType, in: container)],
            detail: "It is registered with .weak in \(container.name) (\(registration.location)), but its "
                + "factory built a \(ServiceName.readable(valueType)), which is \(kind): only class instances can "
                + "be held weakly. "
                + "Build a class instance, or register \(registration.displayName) with .cached or .transient."
        )
    }

    static func noTaggedContainer(
        _ tag: String,
        _ registration: Registration,
        registeredIn: Container,
        requestedFrom: Container,
        path: [PathElement]
    ) -> ResolutionError {
        let searched = requestedFrom.ancestry.map(\.name)
        let needed = registration.displayName
        let elsewhere = "it from a container created with tags: [\"\(tag)\"] or from one of its descendants (for "
            + "example \(registeredIn.name).child(name: \"\(tag)\", tags: [\"\(tag)\"])), or register it with another "
            + "scope."
        // A container on the way carries a tag a letter or two away: most likely a typo in `.matching(…)`.
        let misspelled = requestedFrom.ancestry.lazy.compactMap { container in
            LookupContext.likeliestTypo(of: tag, among: container.tags).map { (container.name, $0) }
        }.first.map { container, meant in
            "\(container) is tagged \"\(meant)\": if \(needed) should live once per \(container), register it with "
                + ".matching(\"\(meant)\") at \(registration.location). Otherwise, resolve " + elsewhere
        }
        let situation = "It is registered with .matching(\"\(tag)\") in \(registeredIn.name) "
            + "(\(registration.location)), so it lives in the nearest container tagged \"\(tag)\", and none of the "
            + "containers searched (\(searched.joined(separator: " → "))) has that tag."
        let (holderTags, root) = (requestedFrom.tags, registeredIn.name)
        // Along the path the error ends up with: a relationship read later adds the steps of its owner, which may
        // be what decides where the service is asked for (a singleton holding a `Lazy` of it).
        let detailAlong: @Sendable ([PathElement]) -> String = { path in
            let before = Array(path.dropLast())
            let advice = KeptOnTheWay.advice(path: before, needed: needed, tag: tag)
                ?? misspelled
                ?? KeptOnTheWay.taggedHolderAdvice(
                    path: before, needed: needed, tag: tag, holderTags: holderTags, root: root
                )
                ?? "Resolve " + elsewhere
            return situation + " " + advice
        }
        return ResolutionError(
            code: .scopeUnavailable,
            requestedType: registration.serviceType,
            name: registration.name,
            path: path + [PathElement(registration, requested: registration.serviceType, in: requestedFrom).unplaced()],
            searchedContainers: searched,
            detailAlong: detailAlong
        )
    }

    static func taggedAboveRegistration(
        _ tag: String,
        _ registration: Registration,
        tagged: Container,
        registeredIn: Container,
        requestedFrom: Container,
        path: [PathElement]
    ) -> ResolutionError {
        ResolutionError(
            code: .scopeUnavailable,
            requestedType: registration.serviceType,
            name: registration.name,
            path: path + [PathElement(registration, requested: registration.serviceType, in: requestedFrom).unplaced()],
            searchedContainers: requestedFrom.ancestry.map(\.name),
            detail: "It is registered with .matching(\"\(tag)\") in \(registeredIn.name) "
                + "(\(registration.location)), and the nearest container tagged \"\(tag)\" is \(tagged.name), an "
                + "ancestor of \(registeredIn.name); \(tagged.name) would hold the instance and build it with its "
                + "own resolver, which cannot see registrations made in \(registeredIn.name). Tag "
                + "\(registeredIn.name) or a container below it, or register \(registration.displayName) in "
                + "\(tagged.name)."
        )
    }

    static func storageMixedKeys(
        scope: String,
        storage: any InstanceStorage,
        asked: InstanceKey,
        got: InstanceKey,
        _ registration: Registration,
        in container: Container,
        path: [PathElement]
    ) -> ResolutionError {
        ResolutionError(
            code: .scopeUnavailable,
            requestedType: registration.serviceType,
            name: registration.name,
            path: path + [PathElement(registration, requested: registration.serviceType, in: container)],
            detail: "Its custom scope \"\(scope)\" asked its storage (\(Swift.type(of: storage))) for the "
                + "instance of \(asked) and got the one stored for \(got); an InstanceStorage must return only "
                + "what was stored under the key it is asked for. Check the storage with "
                + "checkInstanceStorage(_:) in a test."
        )
    }
}
