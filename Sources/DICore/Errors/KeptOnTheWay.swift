/// The way out for a `.matching(tag)` service reached where no container carries its tag, when a service kept where
/// it is registered (a singleton) is on the way to it: that service is built in its own container whichever
/// container resolves it, so no tagged asker can help it, and its lifetime is what to change. Worded once, for the
/// resolve error and for `validate()`'s DI-MATCHING.
package enum KeptOnTheWay {
    /// Whether a service of the lifetime named `scope` is built for the container that asks (`transient`, `graph`,
    /// `scoped`) or in the nearest tagged container on its way up (`matching(…)`), not where it is registered
    /// (`singleton`, `cached`, `weak`, a custom scope).
    package static func buildsForAsker(_ scope: String) -> Bool {
        ["transient", "graph", "scoped"].contains(scope) || scope.hasPrefix("matching(")
    }

    /// Whether a service of the lifetime named `scope` is built in the container of whatever needs it
    /// (`transient`, `graph`), so that it does not decide where its own dependencies come from.
    package static func buildsWithItsDependent(_ scope: String?) -> Bool {
        scope == "transient" || scope == "graph"
    }

    /// The position in `path` of the last step that decides where the rest is built — not a service built with
    /// its dependent, nor a relationship used later — when it is kept where it is registered; `nil` otherwise.
    package static func keeperIndex(in path: [PathElement]) -> Int? {
        guard let index = path.lastIndex(where: { !$0.isDeferred && !buildsWithItsDependent($0.scope) }),
              let scope = path[index].scope, !buildsForAsker(scope), path[index].container != nil
        else { return nil }
        return index
    }

    /// The advice for `needed`, a service of `.matching(tag)`, when the step of `path` (the steps before it) that
    /// needs it is itself a `.matching` service: built in the container of its own tag, which `holderTags` are
    /// the tags of, with its dependencies resolved there — so `tag` has to be on that container or above it, and
    /// asking from a descendant tagged `tag` does not help. `root` names the container an example starts from.
    /// `nil` when the step that needs it is of another lifetime.
    package static func taggedHolderAdvice(
        path: [PathElement], needed: String, tag: String, holderTags: Set<String>, root: String
    ) -> String? {
        guard let holder = path.last(where: { !$0.isDeferred }), let scope = holder.scope,
              scope.hasPrefix("matching("), let home = holder.container
        else { return nil }
        let tags = holderTags.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
        return "\(holder) is a \(scope) service, built in \(home) and resolving its dependencies there, so a "
            + "container tagged \"\(tag)\" must be \(home) or above it: make \(home) under one (for example "
            + "\(root).child(name: \"\(tag)\", tags: [\"\(tag)\"]).child(name: \"\(home)\", tags: [\(tags)])), or "
            + "tag \(home) \"\(tag)\" as well. If a \"\(tag)\" container lives inside \(home) instead, give "
            + "\(holder) a lifetime no longer than \(needed)'s (such as .matching(\"\(tag)\")); or register \(needed) "
            + "with another scope."
    }

    /// The advice for `needed`, a service of `.matching(tag)`, reached by `path` (the steps before it), when a
    /// step on it is kept where it is registered and decides where the rest is built (`keeperIndex(in:)`); `nil`
    /// otherwise, when resolving from a container with the tag is the way out.
    package static func advice(path: [PathElement], needed: String, tag: String) -> String? {
        guard let index = keeperIndex(in: path), let scope = path[index].scope, let home = path[index].container
        else { return nil }
        let keeper = path[index]
        let between = path[(index + 1)...].filter { !$0.isDeferred }.map(\.description)
        let through = between.isEmpty ? "" : " through \(between.joined(separator: " → "))"
        return "\(keeper) needs \(needed)\(through), and is a \(scope) service of \(home), built in \(home) "
            + "whichever container resolves it. Give \(keeper) a lifetime no longer than \(needed)'s (such as "
            + ".matching(\"\(tag)\")), so that it is built where that tag is seen, or register \(needed) with "
            + "another scope."
    }
}
