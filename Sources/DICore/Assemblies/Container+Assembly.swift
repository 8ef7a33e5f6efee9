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
    ///   threw while observing the applied registrations.
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
    /// - Throws: `RegistrationError` (`assemblyFailed`, `behaviorFailed`).
    public func apply(
        _ assemblies: [any Assembly],
        fileID: String = #fileID,
        line: Int = #line
    ) throws(RegistrationError) {
        guard !assemblies.isEmpty else { return }
        let location = SourceLocation(fileID: fileID, line: line)

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
                throw loadFailed(assembly, error, skipped: Array(contents.assemblies[(index + 1)...]), at: location)
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
                    + "into \(name): \(error). Nothing was applied: the registrations that "
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
                + "assemblies to \(name): \(error). The registrations of every assembly stay applied. "
                + "\(notRun) Fix \(assemblyName).loaded(resolver:), or catch the error there if the step is "
                + "optional."
        )
    }

    private static func typeName(of assembly: any Assembly) -> String {
        String(describing: type(of: assembly))
    }

    /// `CoreAssembly, NetworkAssembly`.
    private static func list(_ assemblies: [any Assembly]) -> String {
        assemblies.map(typeName(of:)).joined(separator: ", ")
    }
}
