import DICore

/// A service of the base graph that a strict test may resolve live: a type and a registration name, or a
/// key of the keypath registry.
struct LiveService: Hashable, Sendable {
    let type: ObjectIdentifier
    let name: String?
    /// `\.clock` for a key of the keypath registry; `nil` allows the type's registrations of every kind.
    let keyPath: String?

    init(_ type: Any.Type, name: String?) {
        self.type = ObjectIdentifier(type)
        self.name = name
        keyPath = nil
    }

    init<Service>(_ key: ServiceKeyPath<Service>) {
        type = ObjectIdentifier(Service.self)
        name = nil
        keyPath = "\\.\(ServiceKeys()[keyPath: key].name)"
    }

    /// Whether this allowance covers the resolved registration `info`.
    func allows(_ info: RegistrationInfo) -> Bool {
        type == ObjectIdentifier(info.serviceType) && name == info.name
            && (keyPath == nil || keyPath == info.displayName)
    }
}
