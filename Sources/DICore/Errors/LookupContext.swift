/// What a failed lookup remembers so that its error can suggest close matches when it is printed, and not
/// before: a failed lookup must stay cheap for code that only checks the error's `code`.
package final class LookupContext: Sendable {
    let container: Container
    let key: RegistrationKey
    let type: Any.Type

    /// A lookup of `key` (whose service type is `type`) made from `container`; diagnostics make one to reuse
    /// the suggestions of a failed resolve without resolving.
    package init(container: Container, key: RegistrationKey, type: Any.Type) {
        self.container = container
        self.key = key
        self.type = type
    }

    /// Registrations that were probably meant, nearest first.
    package func suggestions() -> [String] {
        var found: [String] = []
        let typeName = String(describing: type)
        let visible = Set(container.ancestry.map(ObjectIdentifier.init))

        for owner in container.ancestry {
            for registration in owner.registry.all where registration.key != key {
                let sameType = registration.key.type == key.type
                if sameType && registration.key.keyPath != 0 { continue }
                if sameType && registration.key.arguments != key.arguments
                    && registration.key.name == key.name
                {
                    let taking = registration.argumentTypes.map { String(describing: $0) }.joined(separator: ", ")
                    found.append(
                        "\(registration.displayName) takes arguments (\(taking)) in \(owner.name) "
                            + "(\(registration.location)): resolve it with resolve(_:arguments:)."
                    )
                } else if sameType && registration.key.arguments == key.arguments {
                    found.append(nameSuggestion(for: registration, in: owner))
                } else if !sameType && Self.looksRelated(String(describing: registration.serviceType), to: typeName)
                    && registration.key.name == key.name
                {
                    found.append(
                        "\(registration.displayName) is registered in \(owner.name) (\(registration.location)); "
                            + "if it conforms to \(typeName), expose it with .implements(\(typeName).self)."
                    )
                }
            }
        }

        for other in Self.allContainers(under: container.root) where !visible.contains(ObjectIdentifier(other)) {
            if let registration = other.registry.registration(for: key) {
                found.append(
                    "\(registration.displayName) is registered in \(other.name) (\(registration.location)), "
                        + "which \(container.name) cannot see (it is not \(container.name) or an ancestor). "
                        + "Register it in a common ancestor."
                )
            }
        }
        return found
    }

    /// The way out, as one line of code.
    package func fix(code: ResolutionError.Code) -> String? {
        guard code == .notRegistered else { return nil }
        let nameArgument = key.name.map { ", name: \"\($0)\"" } ?? ""
        return "register it in \(container.name) or an ancestor: "
            + "try container.register(\(type).self\(nameArgument)) { r in … }"
    }

    private func nameSuggestion(for registration: Registration, in owner: Container) -> String {
        switch (registration.key.name, key.name) {
        case (nil, _?):
            return "\(registration.displayName) is registered without a name in \(owner.name) "
                + "(\(registration.location)): resolve it without `name:`."
        case (let other?, nil):
            return "\(registration.displayName) is registered under the name \"\(other)\" in \(owner.name) "
                + "(\(registration.location)): pass name: \"\(other)\"."
        case (let other?, let asked?):
            let hint = Self.distance(other, asked) <= 2 ? " Did you mean \"\(other)\"?" : ""
            return "\(registration.displayName) is registered in \(owner.name) (\(registration.location))."
                + hint
        case (nil, nil):
            return "\(registration.displayName) is registered in \(owner.name) (\(registration.location))."
        }
    }

    /// `ConsoleLogger` looks related to `any Logger`: one name contains the other.
    static func looksRelated(_ candidate: String, to requested: String) -> Bool {
        let bare = requested.hasPrefix("any ") ? String(requested.dropFirst(4)) : requested
        guard bare.count >= 3, candidate != requested else { return false }
        return candidate.contains(bare) || bare.contains(candidate)
    }

    static func allContainers(under root: Container) -> [Container] {
        var result: [Container] = []
        var queue = [root]
        while let next = queue.popLast() {
            result.append(next)
            queue += next.children
        }
        return result
    }

    /// Levenshtein distance, for "did you mean" on names.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
