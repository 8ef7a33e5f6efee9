import Synchronization

/// Readable names for types and keys in messages.
package enum ServiceName {
    /// `Logger`, `Logger "primary"`, `any Plugin`.
    package static func describe(_ type: Any.Type, name: String?) -> String {
        let typeName = readable(type)
        guard let name else { return typeName }
        return "\(typeName) \"\(name)\""
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

    /// The type as written in Swift: the runtime prints a parameter pack as `Pack{…}`
    /// (`Provider<Report, Pack{String}>`), people write `Provider<Report, String>`.
    private static func spell(_ type: Any.Type) -> String {
        let text = String(describing: type)
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
