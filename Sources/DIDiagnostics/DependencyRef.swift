import DICore

/// A dependency as the analysis follows it: the exact key, the type for messages and suggestions.
struct DependencyRef: Sendable {
    let key: RegistrationKey
    let type: Any.Type
    let label: ServiceLabel
    /// For `Optional<T>`: the key of `T`, tried when nothing is registered for the optional itself.
    let wrapped: (key: RegistrationKey, type: Any.Type)?
    let observed: Bool
    /// How the owner depends on it: `.direct`, or through a relationship (`Lazy`, `Provider`, `All`).
    let kind: Dependency.Kind
    /// The runtime arguments an assisted `Provider<T, A, B>` passes (part of `key`); `nil` otherwise.
    let arguments: Any.Type?
    /// Whether it stands for one of the registrations an `All<T>` collects (also inside another relationship):
    /// missing, it is left out of the collection, not missing.
    let collects: Bool

    var display: String { label.text }

    /// The dependency it stands for: its type under its name, of its kind, with its arguments, collecting or not.
    var dependency: Dependency {
        var dependency = Dependency(type, name: key.name, kind: kind, arguments: arguments)
        dependency.collects = collects
        return dependency
    }

    /// A dependency a factory was seen asking for: an optional or a relationship (see `EdgeRecorder`).
    init(observed dependency: Dependency) {
        self.init(dependency, observed: true)
    }

    init(_ dependency: Dependency, observed: Bool = false) {
        key = RegistrationKey(
            type: ObjectIdentifier(dependency.type), name: dependency.name,
            arguments: dependency.arguments.map(ObjectIdentifier.init)
        )
        type = dependency.type
        label = ServiceLabel(type: dependency.type, name: dependency.name, keyPathName: nil)
        if let optional = dependency.type as? any OptionalMarker.Type {
            wrapped = (RegistrationKey(type: ObjectIdentifier(optional.wrappedType), name: dependency.name),
                       optional.wrappedType)
        } else {
            wrapped = nil
        }
        self.observed = observed
        kind = dependency.kind
        arguments = dependency.arguments
        collects = dependency.collects
    }

    init(observed registration: Registration) {
        key = registration.key
        type = registration.serviceType
        label = ServiceLabel(
            type: registration.serviceType, name: registration.name, keyPathName: registration.keyPathName
        )
        wrapped = nil
        observed = true
        kind = .direct
        arguments = nil
        collects = false
    }

    /// The parameter's type as the owner declares it: `Rep`, `Lazy<Rep>`, `Provider<Rep>`, `Provider<Rep, Int>`,
    /// `All<Rep>`, `Lazy<All<Rep>>`.
    var declaredType: String {
        let type = ServiceName.readable(type)
        return GraphAnalysis.relationshipSpelling(
            collects && kind != .collection ? "All<\(type)>" : type, kind: kind,
            arguments: arguments.map(ServiceName.argumentList)
        )
    }
}

extension Optional: OptionalMarker {
    static var wrappedType: Any.Type { Wrapped.self }
}
