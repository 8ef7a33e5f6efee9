/// A registration just made; adds further types it can be resolved as.
///
/// ```swift
/// try app.register(RouterImpl.self, scope: .singleton) { _ in RouterImpl() }
///     .implements(Router.self)
///     .implements(DeeplinkHandler.self)
/// // resolve(Router.self) and resolve(DeeplinkHandler.self) return the same RouterImpl instance
/// ```
public struct RegistrationHandle<Service>: Sendable {
    /// The container the registration was made in.
    public let container: Container
    @usableFromInline package let target: Target

    /// The registration, or a value the container keeps without one until something needs it
    /// (`PendingValue`).
    @usableFromInline
    package enum Target: Sendable {
        case registration(Registration)
        case value(PendingValue)
    }

    @inlinable
    package init(container: Container, registration: Registration) {
        self.container = container
        target = .registration(registration)
    }

    @inlinable
    package init(container: Container, value: PendingValue) {
        self.container = container
        target = .value(value)
    }

    /// The registration; for a kept value, `Container.registration(of:)`.
    package var registration: Registration {
        switch target {
        case .registration(let registration): registration
        case .value(let value): container.registration(of: value)
        }
    }

    /// Exposes this registration under `alias` too, sharing its lifetime: with `.singleton`, every alias
    /// yields the identical instance.
    ///
    /// The alias stands for the registration's *key* in this container: registering the key again later
    /// (say `Handle.self` with a new factory) moves the alias along to the new registration, which builds its
    /// own instance; the replaced registration's instance is dropped (and disposed) and never handed out
    /// through the alias again. Registering the alias type itself again replaces only the alias. The alias
    /// is checked when it is resolved: if the instance does not conform, resolution throws `typeMismatch`
    /// naming both types.
    ///
    /// - Parameters:
    ///   - alias: The further type, usually a protocol existential.
    ///   - name: The alias's registration name; the registration's own name by default.
    ///   - fileID: The file of the alias, printed in diagnostics; leave the default.
    ///   - line: The line of the alias, printed in diagnostics; leave the default.
    /// A registration that takes runtime arguments has no alias: an alias is resolved without arguments, so it
    /// could never be built. Register the other type with the same arguments instead.
    ///
    /// - Throws: `RegistrationError` when the alias key is registered with `overridable: false`, or
    ///   `typeMismatch` when the registration takes runtime arguments.
    @discardableResult
    public func implements<Alias>(
        _ alias: Alias.Type,
        name: String? = nil,
        fileID: String = #fileID,
        line: Int = #line
    ) throws(RegistrationError) -> RegistrationHandle<Service> {
        let location = SourceLocation(fileID: fileID, line: line)
        let registration = registration
        if case .arguments = registration.kind {
            throw RegistrationError.aliasOfArguments(alias, name: name, of: registration, in: container, at: location)
        }
        try container.add(Container.makeAlias(alias, name: name, of: registration, location: location))
        return self
    }
}
