import Synchronization

/// Readable names for types and keys in messages.
package enum ServiceName {
    /// `Logger`, `Logger "primary"`, `any Plugin`.
    package static func describe(_ type: Any.Type, name: String?) -> String {
        let typeName = readable(type)
        guard let name else { return typeName }
        return "\(typeName) \"\(name)\""
    }

    /// The relationship that awaits a service only `resolveAsync` builds, as code spells it:
    /// `AsyncProvider<any Store>`; the way out every refusal of such a service names.
    package static func asyncProvider(of type: Any.Type) -> String {
        "AsyncProvider<\(readable(type))>"
    }

    /// Names already spelled out, by metatype (metatypes live as long as the process): naming a generic type
    /// costs microseconds, and diagnostics name the same types again and again.
    private static let spelled = Lock<[ObjectIdentifier: String]>([:])

    /// The type as written in Swift (`readable(_:)`), spelled out once per type.
    package static func readable(_ type: Any.Type) -> String {
        let id = ObjectIdentifier(type)
        if let known = spelled.withLock({ $0[id] }) { return known }
        let text = spell(type)
        spelled.withLock { $0[id] = text }
        return text
    }

    /// The type as an expression of its metatype, for the code a message suggests: `Database.self`,
    /// `(any Logger).self`, `Cache?.self`.
    package static func metatype(_ type: Any.Type) -> String {
        let text = readable(type)
        return needsParentheses(text) ? "(\(text)).self" : "\(text).self"
    }

    /// The protocols an existential stands for, as a conformance names them: `Logger` for `any Logger`,
    /// `Router & Sendable` for `any Router & Sendable`; another type as `readable(_:)` writes it.
    package static func protocols(_ type: Any.Type) -> String {
        let text = readable(type)
        guard TypeKind(type) == .existential, text.hasPrefix("any ") else { return text }
        return String(text.dropFirst(4))
    }

    /// The first arguments of a call that names a key, for the code a message suggests: `Database.self`,
    /// `(any Logger).self, name: "audit"`.
    package static func key(_ type: Any.Type, name: String?) -> String {
        metatype(type) + (name.map { ", name: \"\($0)\"" } ?? "")
    }

    /// The runtime arguments `arguments` stands for, as listed in a `Provider`'s type: `String` for one,
    /// `String, Int` for the tuple `(String, Int)`.
    package static func argumentList(_ arguments: Any.Type) -> String {
        let text = readable(arguments)
        guard TypeKind(arguments) == .value("a tuple"), text.hasPrefix("("), text.hasSuffix(")") else { return text }
        return String(text.dropFirst().dropLast())
    }

    /// Whether `text`, a type as written, needs parentheses before a postfix (`?`, `.self`): an existential
    /// (`any Logger`, `any A & B`) or a function type.
    static func needsParentheses(_ text: String) -> Bool {
        text.hasPrefix("any ") || text.contains(" -> ")
    }

    /// The type as written in Swift. The runtime leaves out `any` (it prints `Logger` for `any Logger`), writes
    /// optionals, arrays and dictionaries without their sugar (`Optional<Cache>`), and a parameter pack as
    /// `Pack{…}` (`Provider<Report, Pack{String}>`). Those and DIToolkit's relationships are written here, their
    /// arguments spelled the same way; other generic types keep the runtime's spelling of their arguments.
    private static func spell(_ type: Any.Type) -> String {
        if let written = type as? any WrittenType.Type { return written.written }
        let text = withoutPacks(String(describing: type))
        if TypeKind(type) == .existential, !text.hasPrefix("any "), text != "Any", text != "AnyObject" {
            return "any " + text
        }
        return text
    }

    /// `text` with the runtime's `Pack{…}` around a parameter pack's types removed.
    private static func withoutPacks(_ text: String) -> String {
        guard text.contains("Pack{") else { return text }
        var result = ""
        var depth = 0
        var packDepths: [Int] = []
        var index = text.startIndex
        while index < text.endIndex {
            if text[index...].hasPrefix("Pack{") {
                let inside = text.index(index, offsetBy: 5)
                if inside < text.endIndex, text[inside] == "}" {
                    if result.hasSuffix(", ") { result.removeLast(2) }
                    index = text.index(after: inside)
                    continue
                }
                depth += 1
                packDepths.append(depth)
                index = inside
                continue
            }
            let character = text[index]
            index = text.index(after: index)
            if character == "{" { depth += 1 }
            if character == "}" {
                defer { depth -= 1 }
                if packDepths.last == depth {
                    packDepths.removeLast()
                    continue
                }
            }
            result.append(character)
        }
        return result
    }
}

/// A generic type that messages write as Swift does, with its arguments spelled by `ServiceName`: the standard
/// library's sugared types and DIToolkit's relationships.
protocol WrittenType {
    /// `Cache?`, `[any Plugin]`, `Lazy<any Logger>`.
    static var written: String { get }
}

extension Optional: WrittenType {
    static var written: String {
        let wrapped = ServiceName.readable(Wrapped.self)
        return ServiceName.needsParentheses(wrapped) ? "(\(wrapped))?" : "\(wrapped)?"
    }
}

extension Array: WrittenType {
    static var written: String { "[\(ServiceName.readable(Element.self))]" }
}

extension Dictionary: WrittenType {
    static var written: String { "[\(ServiceName.readable(Key.self)): \(ServiceName.readable(Value.self))]" }
}

extension Set: WrittenType {
    static var written: String { ServiceName.generic("Set", Element.self) }
}

extension Lazy: WrittenType {
    static var written: String { ServiceName.generic("Lazy", Service.self) }
}

extension AsyncProvider: WrittenType {
    static var written: String { ServiceName.generic("AsyncProvider", Service.self) }
}

extension All: WrittenType {
    static var written: String { ServiceName.generic("All", Service.self) }
}

extension Provider: WrittenType {
    static var written: String {
        var types: [Any.Type] = [Service.self]
        repeat types.append((each Argument).self)
        return ServiceName.generic("Provider", types)
    }
}

extension ServiceName {
    /// `name<A, B>`, each argument spelled by `readable(_:)`.
    static func generic(_ name: String, _ arguments: Any.Type...) -> String {
        generic(name, arguments)
    }

    /// `name<A, B>` for a list of arguments: `Provider<Report, String>` from the service and its arguments' types.
    package static func generic(_ name: String, _ arguments: [Any.Type]) -> String {
        name + "<" + arguments.map(readable).joined(separator: ", ") + ">"
    }
}
