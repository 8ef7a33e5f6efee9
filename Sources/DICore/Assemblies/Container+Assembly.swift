extension Container {
    /// Applies assemblies: every `assemble(into:)` first, in order; then their registrations, all at once;
    /// then every `loaded(resolver:)`, in the same order.
    ///
    /// ```swift
    /// try app.apply(CoreAssembly(), NetworkAssembly(), FeatureAssembly())
    /// ```
    ///
    /// All or nothing: the registrations the assemblies make in this container are staged while they
    /// assemble and applied together only when every `assemble(into:)` returned. If one throws, the
    /// remaining assemblies are not run, nothing they staged is applied, and no `loaded` hook runs.
    /// Registrations made into other containers (children an assembly creates) take effect at once.
    ///
    /// A `loaded(resolver:)` that throws stops the remaining hooks; the registrations stay applied (the
    /// hooks that ran may already have built singletons). Behaviours are told about the registrations after
    /// they are applied, before the `loaded` hooks; a behaviour failure is thrown after the hooks ran.
    ///
    /// An `apply` inside an assembly's `assemble(into:)` for the same container joins the outer one: its
    /// registrations are applied with the outer batch and its `loaded` hooks run with the outer ones. If the
    /// nested `apply` fails, what it staged is dropped and the error reaches the outer assembly.
    ///
    /// - Parameters:
    ///   - assemblies: The assemblies, in the order to run them.
    ///   - fileID: The file of the call, printed in diagnostics; leave the default.
    ///   - line: The line of the call, printed in diagnostics; leave the default.
    /// - Throws: `RegistrationError`: `assemblyFailed` naming the assembly and the step that failed, with the
    ///   assembly's error as `underlying` (when that is itself a `RegistrationError`, its `service` and
    ///   `location` are kept; otherwise `service` is the assembly's type); `behaviorFailed` when a behaviour
    ///   threw while observing the applied registrations; `containerClosed` when the container is closed, or
    ///   closes while the assemblies assemble (nothing is applied) or while the `loaded` hooks run and one of
    ///   them is refused for it.
    public func apply(
        _ assemblies: any Assembly...,
        fileID: String = #fileID,
        line: Int = #line
    ) throws(RegistrationError) {
        try apply(assemblies, fileID: fileID, line: line)
    }

    /// Applies an array of assemblies; see `apply(_:fileID:line:)` for the variadic form and the rules.
    ///
    /// ```swift
    /// var assemblies: [any Assembly] = [CoreAssembly(), NetworkAssembly()]
    /// if useFakes { assemblies.append(FakeServicesAssembly()) }   // later registrations win
    /// try app.apply(assemblies)
    /// ```
    ///
    /// - Parameters:
    ///   - assemblies: The assemblies, in the order to run them.
    ///   - fileID: The file of the call, printed in diagnostics; leave the default.
    ///   - line: The line of the call, printed in diagnostics; leave the default.
    /// - Throws: `RegistrationError` (`assemblyFailed`, `behaviorFailed`, `containerClosed`).
    public func apply(
        _ assemblies: [any Assembly],
        fileID: String = #fileID,
        line: Int = #line
    ) throws(RegistrationError) {
        guard !assemblies.isEmpty else { return }
        let location = SourceLocation(fileID: fileID, line: line)
        // No assembly runs for a closed container: `assemble(into:)` may make children or register elsewhere.
        if isClosed { throw closed(applying: assemblies, at: location, .before) }

        if let outer = RegistrationBatch.active(for: self) {
            let mark = outer.mark()
            do {
                for assembly in assemblies { try assemble(assembly, into: outer, allOf: assemblies, at: location) }
            } catch {
                outer.rollBack(to: mark)
                throw error
            }
            return
        }

        let batch = RegistrationBatch(container: self, parent: RegistrationBatch.current)
        let failure = batch.activate { () -> RegistrationError? in
            do throws(RegistrationError) {
                for assembly in assemblies { try assemble(assembly, into: batch, allOf: assemblies, at: location) }
                return nil
            } catch {
                return error
            }
        }
        let contents = batch.close()
        if let failure { throw failure }

        do {
            try insertNow(all: contents.registrations)
        } catch {
            throw commitFailed(error, contents: contents, allOf: assemblies, at: location)
        }
        var behaviorFailure: RegistrationError?
        do {
            try reportRegistered(contents.registrations)
        } catch {
            behaviorFailure = error
        }
        for (index, assembly) in contents.assemblies.enumerated() {
            do {
                try assembly.loaded(resolver: self)
            } catch {
                let skipped = Array(contents.assemblies[(index + 1)...])
                if isClosed, Self.isClosedRefusal(error) {
                    throw closed(applying: assemblies, at: location, .loading(assembly, skipped: skipped), error)
                }
                throw loadFailed(assembly, error, skipped: skipped, at: location)
            }
        }
        if let behaviorFailure { throw behaviorFailure }
    }

    /// Runs one `assemble(into:)` into `batch`, naming the assembly if it throws.
    private func assemble(
        _ assembly: any Assembly,
        into batch: RegistrationBatch,
        allOf assemblies: [any Assembly],
        at location: SourceLocation
    ) throws(RegistrationError) {
        let mark = batch.begin(assembly)
        defer { batch.end(mark) }
        do {
            try assembly.assemble(into: self)
        } catch {
            if isClosed, Self.isClosedRefusal(error) {
                throw closed(applying: assemblies, at: location, .assembling(assembly), error)
            }
            let assemblyName = Self.typeName(of: assembly)
            let registrationError = error as? RegistrationError
            throw RegistrationError(
                code: .assemblyFailed,
                service: registrationError?.service ?? assemblyName,
                container: name,
                location: registrationError?.location ?? location,
                existing: registrationError?.existing,
                underlying: error,
                message: "\(assemblyName).assemble(into:) threw while apply (at \(location)) was assembling "
                    + "into \(name): \(Self.sentence(error)) Nothing was applied: the registrations that "
                    + "\(Self.list(assemblies)) made in \(name) during this apply were dropped, and no "
                    + "loaded(resolver:) hook ran. Fix \(assemblyName), then apply the assemblies again."
            )
        }
    }

    private func commitFailed(
        _ error: RegistrationError,
        contents: RegistrationBatch.Contents,
        allOf assemblies: [any Assembly],
        at location: SourceLocation
    ) -> RegistrationError {
        if isClosed { return closed(applying: assemblies, at: location, .committing, error) }
        let index = contents.registrations.firstIndex {
            $0.location == error.location && $0.displayName == error.service
        }
        let origin = index.map { contents.origins[$0] } ?? Self.list(assemblies)
        return RegistrationError(
            code: .assemblyFailed,
            service: error.service,
            container: name,
            location: error.location,
            existing: error.existing,
            underlying: error,
            message: "The registrations that \(origin) made in \(name) could not be applied by apply (at "
                + "\(location)), because \(name) changed while the assemblies ran: \(error.message) Nothing "
                + "from this apply was applied and no loaded(resolver:) hook ran. Register \(error.service) "
                + "in one place only, or apply the assemblies before other code registers into \(name)."
        )
    }

    private func loadFailed(
        _ assembly: any Assembly,
        _ error: any Error,
        skipped: [any Assembly],
        at location: SourceLocation
    ) -> RegistrationError {
        let assemblyName = Self.typeName(of: assembly)
        let registrationError = error as? RegistrationError
        let notRun = skipped.isEmpty
            ? "It was the last hook."
            : "The loaded(resolver:) hooks of \(Self.list(skipped)) did not run."
        return RegistrationError(
            code: .assemblyFailed,
            service: registrationError?.service ?? assemblyName,
            container: name,
            location: registrationError?.location ?? location,
            underlying: error,
            message: "\(assemblyName).loaded(resolver:) threw after apply (at \(location)) had applied the "
                + "assemblies to \(name). The registrations of every assembly stay applied. \(notRun) Fix "
                + "\(assemblyName).loaded(resolver:), or catch the error there if the step is optional. It threw: "
                + "\(error)"
        )
    }

    /// When in an `apply` its container was found closed.
    private enum ClosedStep {
        case before
        case assembling(any Assembly)
        case committing
        case loading(any Assembly, skipped: [any Assembly])
    }

    /// `containerClosed` for an `apply` of `assemblies` that found this container closed at `step`.
    private func closed(
        applying assemblies: [any Assembly],
        at location: SourceLocation,
        _ step: ClosedStep,
        _ underlying: (any Error)? = nil
    ) -> RegistrationError {
        let list = Self.list(assemblies)
        let what: String
        switch step {
        case .before:
            what = "no assembly ran."
        case .assembling(let assembly):
            what = "\(name) was closed while \(Self.typeName(of: assembly)).assemble(into:) ran, so nothing was "
                + "applied and no loaded(resolver:) hook ran."
        case .committing:
            what = "\(name) was closed while the assemblies assembled, so nothing was applied and no "
                + "loaded(resolver:) hook ran."
        case .loading(let assembly, let skipped):
            let notRun = skipped.isEmpty ? "" : " The loaded(resolver:) hooks of \(Self.list(skipped)) did not run."
            what = "\(name) was closed while the loaded(resolver:) hooks ran, and "
                + "\(Self.typeName(of: assembly)).loaded(resolver:) was refused for it: the registrations of this "
                + "apply went with the close.\(notRun)"
        }
        // Why it is closed and the way out: as any closed container says, when it was closed before or with an
        // ancestor; when it was closed itself during the apply, that the close should wait for the apply.
        let closedDuringTheApply = switch step {
        case .before: false
        case .assembling, .committing, .loading: !ancestry.dropFirst().contains(where: \.isClosed)
        }
        let why = closedDuringTheApply
            ? "Call close() only once apply(_:) has returned, or apply the assemblies to a container that is still "
                + "open."
            : closedDetail(.apply)
        return RegistrationError(
            code: .containerClosed,
            service: list,
            container: name,
            location: location,
            underlying: underlying,
            message: "Cannot apply \(list) to \(name) (at \(location)): \(what) \(why)"
        )
    }

    /// Whether `error` is a refusal by a closed container: a registration or a resolution.
    private static func isClosedRefusal(_ error: any Error) -> Bool {
        (error as? RegistrationError)?.code == .containerClosed || (error as? ResolutionError)?.code == .containerClosed
    }

    /// `error`'s text as a sentence to go on with: its description, ending in one full stop.
    private static func sentence(_ error: any Error) -> String {
        let text = "\(error)"
        return text.hasSuffix(".") ? text : text + "."
    }

    private static func typeName(of assembly: any Assembly) -> String {
        String(describing: type(of: assembly))
    }

    /// `CoreAssembly, NetworkAssembly`.
    private static func list(_ assemblies: [any Assembly]) -> String {
        assemblies.map(typeName(of:)).joined(separator: ", ")
    }
}
