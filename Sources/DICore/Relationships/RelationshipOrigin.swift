/// Where a relationship was injected: the owner being built at that moment and the relationship's own step,
/// so that an error raised when it is used later names the path from that owner.
struct RelationshipOrigin: Sendable {
    /// The build that received the relationship, `nil` when it was resolved at the top level.
    let owner: PathElement?
    /// The relationship's step (`Lazy<Database>`, marked deferred).
    let step: PathElement

    /// The origin of a relationship of `kind` of type `relationship`, to `target`, made in `container` now.
    init(_ relationship: Any.Type, kind: Dependency.Kind, name: String?, target: Registration,
         in container: Container) {
        // An async factory's path travels in the task, not on the thread's stack.
        owner = ResolutionStack.current.path.last ?? AsyncResolution.currentIfActive?.path.last
        step = PathElement(
            relationship: relationship, kind: kind, name: name, in: container.name,
            location: owner?.location ?? target.location
        )
    }

    /// The origin of a relationship a test built by hand (`Lazy(value:)`), in no container.
    init(handBuilt relationship: Any.Type, kind: Dependency.Kind, location: SourceLocation) {
        owner = nil
        step = PathElement(relationship: relationship, kind: kind, name: nil, in: "no container", location: location)
    }

    /// The error of a use after the container the relationship was made in was released. (The path gets
    /// the relationship's step from `deferring(_:)`, as every error of a use does.)
    func released(_ type: Any.Type, name: String?) -> ResolutionError {
        let container = step.container ?? "?"
        return ResolutionError(
            code: .containerClosed,
            requestedType: type,
            name: name,
            path: ResolutionStack.current.path,
            detail: "\(step) was made in \(container), which has since been released; a relationship does not keep "
                + "its container alive. Keep \(container) for as long as the services it made use their "
                + "relationships."
        )
    }

    /// `error`, raised by using the relationship, with the relationship's step in its path: after the owner
    /// when used outside any build, or after the builds under way when used inside one.
    ///
    /// - Parameter activeSteps: How many steps of the error's path are builds that were under way when the
    ///   relationship was used; by default those of this thread's synchronous resolution.
    func deferring(_ error: any Error, activeSteps: Int? = nil) -> any Error {
        guard let error = error as? ResolutionError else { return error }
        let active = activeSteps ?? ResolutionStack.current.path.count
        let path: [PathElement]
        if active == 0 {
            path = (owner.map { [$0] } ?? []) + [step] + error.path
        } else {
            path = Array(error.path.prefix(active)) + [step] + error.path.dropFirst(active)
        }
        return error.replacingPath(with: path)
    }
}

extension ResolutionError {
    /// The same error along another path, its advice for that path.
    func replacingPath(with path: [PathElement]) -> ResolutionError {
        var error = self
        error.path = path
        if let detailAlong { error.detail = detailAlong(path) }
        return error
    }
}
