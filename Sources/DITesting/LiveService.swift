/// A service of the base graph that a strict test may resolve live: a type and a registration name.
struct LiveService: Hashable, Sendable {
    let type: ObjectIdentifier
    let name: String?

    init(_ type: Any.Type, name: String?) {
        self.type = ObjectIdentifier(type)
        self.name = name
    }
}
