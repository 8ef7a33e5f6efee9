import DICore

extension Container {
    /// Checks the dependency graph of this container and its descendants, and returns every finding at once.
    ///
    /// Nothing is built: the check follows the dependencies declared by `autoregister` (and, with
    /// `instantiating: true`, those observed while building every service in throw-away copies). Each
    /// container's registrations are checked as that container sees them, its ancestors' included.
    ///
    /// ```swift
    /// let report = app.validate()
    /// for finding in report.findings where finding.severity == .error {
    ///     print(finding)        // error[DI-MISSING]: Repository needs Database "primary", …
    /// }
    /// ```
    ///
    /// The findings and their IDs (`DI-MISSING`, `DI-CYCLE`, `DI-DEFERRED-CYCLE`, `DI-CAPTIVE`,
    /// `DI-MATCHING`, `DI-ASYNC`, `DI-ALIAS`, `DI-BUILD`, `DI-SHADOW`, `DI-OPAQUE`, `DI-CLOSED`) are listed in
    /// ``Finding/ID``.
    ///
    /// - Parameter instantiating: Also build every service (every name, in every container of the subtree)
    ///   in throw-away copies of the containers, so that failing factories and the dependencies of closure
    ///   factories are found too. No instance of the real containers is built. Services that need runtime
    ///   arguments or an `async` factory are skipped.
    /// - Returns: The findings, errors first, in a deterministic order.
    public func validate(instantiating: Bool = false) -> ValidationReport {
        let graph = analyse(instantiating: instantiating, edges: false)
        return graph.report(graph.findings)
    }

    /// Validates like `validate(instantiating: true)`, and also builds the services with `async` factories,
    /// through `resolveAsync`, in the throw-away copies.
    ///
    /// ```swift
    /// let report = await app.validateAsync()
    /// ```
    ///
    /// What an `async` factory resolves is not observed (its dependencies stay unknown), but a failure to
    /// build it is a finding like any other.
    ///
    /// - Returns: The findings, errors first, in a deterministic order.
    public func validateAsync() async -> ValidationReport {
        let instantiation = await Instantiation.including(async: self)
        var analysis = GraphAnalysis(self, observed: instantiation.observed)
        let graph = analysis.run(edges: false).adding(instantiation.findings)
        return graph.report(graph.findings)
    }

    /// A snapshot of the dependency graph of this container, its ancestors and its descendants, with the
    /// findings of `validate()` marked on it.
    ///
    /// ```swift
    /// print(app.graph().text())
    /// print(app.graph().mermaid())   // paste into a GitHub comment
    /// ```
    ///
    /// - Parameter instantiating: Also build every service in throw-away copies to observe the dependencies
    ///   of closure factories (see `validate(instantiating:)`).
    /// - Returns: The graph; render it with `text()`, `dot()`, `mermaid()` or `json()`.
    public func graph(instantiating: Bool = false) -> DependencyGraph {
        analyse(instantiating: instantiating)
    }

    /// What provides `type` under `name` as this container sees it: the providing container and the lookup
    /// chain, what it shadows, its scope and who holds the instance, its dependencies and its dependents.
    ///
    /// ```swift
    /// print(checkout.explain(Logger.self))
    /// // Logger, as checkout resolves it
    /// //   provided by:  app (App/Setup.swift:7)
    /// //   …
    /// ```
    ///
    /// - Parameters:
    ///   - type: The service type, as it is resolved.
    ///   - name: The registration name; `nil` for the unnamed registration.
    /// - Returns: A value whose description is a short readable page.
    public func explain<Service>(_ type: Service.Type, name: String? = nil) -> Explanation {
        Explanation(type, name: name, in: self)
    }

    /// The graph of this container's tree with its findings; without its edges when `edges` is false (a
    /// validation only needs the findings).
    func analyse(instantiating: Bool, edges: Bool = true) -> DependencyGraph {
        guard instantiating else {
            var analysis = GraphAnalysis(self)
            return analysis.run(edges: edges)
        }
        let instantiation = Instantiation(self)
        var analysis = GraphAnalysis(self, observed: instantiation.observed)
        let graph = analysis.run(edges: edges)
        return graph.adding(instantiation.findings)
    }
}

extension DependencyGraph {
    /// How many containers of the graph were validated (the asked one and its descendants).
    var subtreeCount: Int { containers.filter { !$0.isAncestor }.count }

    /// The validation report of this graph with `findings`: the subtree's containers, the ancestors beside them,
    /// and every registration the check covered.
    func report(_ findings: [Finding]) -> ValidationReport {
        ValidationReport(
            findings: findings, container: container, containerCount: subtreeCount,
            registrationCount: registrationCount, ancestorCount: Self.ancestorCount(containers)
        )
    }

    /// The graph with the findings of an instantiation added, except those the static checks already made.
    func adding(_ extra: [Finding]) -> DependencyGraph {
        let known = Set(findings.map { "\($0.id)|\($0.service)" })
        let cycles = findings.filter { $0.id == .cycle }.map { Set($0.path.map(\.description)) }
        let new = extra.filter { finding in
            if known.contains("\(finding.id)|\(finding.service)") { return false }
            if finding.id == .cycle {
                let members = Set(finding.path.map(\.description))
                return !cycles.contains { members.isSubset(of: $0) }
            }
            return true
        }
        // A loop the static checks called broken by a relationship, which a build met as a cycle all the same (the
        // relationship was used while its target was being built): the cycle is the finding, the note would say
        // the opposite.
        let builtThrough = new.filter { $0.id == .cycle && $0.path.contains(where: \.isDeferred) }
            .map { Set($0.path.filter { !$0.isDeferred }.map(\.description)) }
        let contradicted = findings.filter { finding in
            finding.id == .deferredCycle
                && builtThrough.contains { Set(finding.path.map(\.description)).isSubset(of: $0) }
        }
        let kept = findings.filter { !contradicted.contains($0) }
        let report = report(kept + new)
        var marks = self.marks
        // The services by where they were registered, to find the one each finding is about.
        var byLocation: [SourceLocation: [Int]] = [:]
        if !new.isEmpty {
            for (index, service) in services.enumerated() { byLocation[service.location, default: []].append(index) }
        }
        for finding in contradicted {
            guard let first = finding.path.first, let location = first.location,
                  let index = byLocation[location]?.first(where: { services[$0].display == first.description }),
                  !kept.contains(where: { $0.id == .deferredCycle && $0.service == finding.service })
            else { continue }
            marks[index]?.removeAll { $0 == .deferredCycle }
            if marks[index]?.isEmpty == true { marks[index] = nil }
        }
        for finding in new {
            guard let last = finding.path.last(where: { $0.location != nil }), let location = last.location
            else { continue }
            if let index = byLocation[location]?.first(where: { services[$0].display == last.description }),
               !(marks[index] ?? []).contains(finding.id) {
                marks[index, default: []].append(finding.id)
            }
        }
        return DependencyGraph(
            container: container, containers: containers, services: services, edges: edges,
            findings: report.findings, marks: marks
        )
    }
}
