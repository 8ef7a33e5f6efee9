import DICore

/// A service as people write it (`Database "primary"`, `\.clock`), spelled out only when printed: naming a
/// type costs more than everything else validation does with it.
struct ServiceLabel: Sendable {
    let type: Any.Type
    let name: String?
    let keyPathName: String?

    var text: String {
        if let keyPathName { return "\\.\(keyPathName)" }
        return Dependency(type, name: name).description
    }

    /// Whether both labels print the same.
    func same(as other: ServiceLabel) -> Bool {
        ObjectIdentifier(type) == ObjectIdentifier(other.type) && name == other.name && keyPathName == other.keyPathName
    }
}
