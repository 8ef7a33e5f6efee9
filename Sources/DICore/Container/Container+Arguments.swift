import Synchronization

extension Container {
    /// Registers a factory that takes runtime arguments, passed at each resolve.
    ///
    /// ```swift
    /// try app.register(Report.self) { (r: any Resolver, quarter: String) in Report(quarter: quarter) }
    /// let report = try app.resolve(Report.self, argument: "2026-Q3")
    /// ```
    ///
    /// The argument types are part of the key: a resolve with other argument types or another count is an
    /// `argumentMismatch` error naming both. Services with arguments are built on every resolve (transient).
    ///
    /// - Throws: `RegistrationError` (`alreadyRegistered`, `containerClosed`).
    @discardableResult
    public func register<Service, each Argument>(
        _ type: Service.Type,
        name: String? = nil,
        overridable: Bool = true,
        fileID: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable (any Resolver, repeat each Argument) throws -> Service
    ) throws(RegistrationError) -> RegistrationHandle<Service> {
        var argumentTypes: [Any.Type] = []
        for argument in repeat (each Argument).self { argumentTypes.append(argument) }
        let registration = Registration(
            key: RegistrationKey(
                type: ObjectIdentifier(type),
                name: name,
                arguments: ObjectIdentifier((repeat each Argument).self)
            ),
            kind: .arguments,
            body: ArgumentFactoryBox(factory),
            serviceType: type,
            argumentTypes: argumentTypes,
            scope: .transient,
            overridable: overridable,
            location: SourceLocation(fileID: fileID, line: line)
        )
        ArgumentServices.insert(registration.key.type)
        try add(registration)
        return RegistrationHandle(container: self, registration: registration)
    }

    /// Resolves a service registered with runtime arguments.
    ///
    /// ```swift
    /// let cell = try app.resolve(Cell.self, arguments: "title", 3)
    /// ```
    ///
    /// - Throws: `ResolutionError` (`argumentMismatch` when the service takes other arguments).
    public func resolve<Service, each Argument>(
        _ type: Service.Type = Service.self,
        name: String? = nil,
        arguments: repeat each Argument
    ) throws -> Service {
        let key = RegistrationKey(
            type: ObjectIdentifier(type),
            name: name,
            arguments: ObjectIdentifier((repeat each Argument).self)
        )
        guard let (registration, owner) = lookup(key) else {
            if isClosed { throw closedError(type, name: name) }
            throw argumentMismatch(key, type, arguments: (repeat each Argument).self)
        }
        if isClosed { throw closedError(type, name: name) }
        guard case .arguments = registration.kind else {
            return try resolve(registration, from: owner, as: type)
        }
        let factory = unsafeDowncast(registration.body, to: ArgumentFactoryBox<Service, repeat each Argument>.self)
        let value: Service
        do {
            let stack = try enterBuild(registration, requested: type)
            defer { stack.with { $0.leave() } }
            do {
                value = try factory.make(self, repeat each arguments)
            } catch {
                throw stack.with { $0.failure(error) }
            }
        }
        if registry.needsSlowPath { reportResolved(registration, heldBy: owner, instance: value) }
        return value
    }

    /// Resolves a service registered with one runtime argument.
    ///
    /// ```swift
    /// let report = try app.resolve(Report.self, argument: "2026-Q3")
    /// ```
    ///
    /// - Throws: `ResolutionError` (`argumentMismatch` when the service takes other arguments).
    public func resolve<Service, Argument>(
        _ type: Service.Type = Service.self,
        name: String? = nil,
        argument: Argument
    ) throws -> Service {
        try resolve(type, name: name, arguments: argument)
    }

    /// The error for a lookup of `key` that found nothing, when the service is registered with other
    /// runtime arguments (or none) here or in an ancestor: `argumentMismatch` saying what it takes, instead
    /// of `notRegistered` and a suggestion to register it again. `nil` when no such registration exists.
    ///
    /// Costs one atomic load for the usual failed lookup, of a type never registered with arguments.
    func argumentMismatchIfRegisteredOtherwise(_ key: RegistrationKey, _ type: Any.Type) -> ResolutionError? {
        guard key.keyPath == 0, ArgumentServices.mayContain(key.type) else { return nil }
        let error = argumentMismatch(key, type, arguments: nil)
        return error.code == .argumentMismatch ? error : nil
    }

    /// `argumentMismatch` for `key`, asked for with `arguments` (`nil`: none) — through `relationship` when a
    /// `Lazy` or a `Provider` asked — when the service is registered with other runtime arguments (or none) here
    /// or in an ancestor; otherwise what `missing` says.
    func argumentMismatch(
        _ key: RegistrationKey, _ type: Any.Type, arguments: Any.Type?, asked relationship: Any.Type? = nil
    ) -> ResolutionError {
        // The nearest registration of the type and name with other arguments, with its container.
        let nearest = ancestry.lazy.compactMap { container in
            container.registry.all.first {
                $0.key.type == key.type && $0.key.name == key.name && $0.key != key && $0.key.keyPath == 0
            }.map { ($0, container) }
        }.first
        guard let (other, owner) = nearest else { return missing(key, type, checkingArguments: false) }
        let taking = other.argumentsTaken
        let called = switch arguments {
        case nil: "without arguments"
        // One argument's tuple type is the argument's own type.
        case let arguments? where TypeKind(arguments) == .value("a tuple"):
            "with arguments (\(ServiceName.argumentList(arguments)))"
        case let argument?: "with an argument (\(ServiceName.readable(argument)))"
        }
        // The path ends at the registration that takes other arguments, where it is, not at "not found".
        let path = ResolutionStack.current.path(then: PathElement(other, requested: type, in: owner))
        if let relationship {
            // A relationship fixes its arguments in its type: the way out is the relationship that fits.
            let fitting = ServiceName.generic("Provider", [type] + other.argumentTypes)
            return ResolutionError(
                code: .argumentMismatch, requestedType: type, name: key.name, path: path,
                searchedContainers: ancestry.map(\.name),
                detail: "\(ServiceName.readable(relationship)) asks for it \(called), but the registration at "
                    + "\(other.location) takes \(taking). Inject \(fitting) instead."
            )
        }
        let advice = switch other.argumentTypes.count {
        case 0: "Resolve it without arguments."
        case 1: "Pass an argument of that type with resolve(_:argument:)."
        default: "Pass arguments of those types, in that order, with resolve(_:arguments:)."
        }
        return ResolutionError(
            code: .argumentMismatch,
            requestedType: type,
            name: key.name,
            path: path,
            searchedContainers: ancestry.map(\.name),
            detail: "It was called \(called), but the registration at \(other.location) takes \(taking). \(advice)",
            context: LookupContext(container: self, key: key, type: type)
        )
    }
}
