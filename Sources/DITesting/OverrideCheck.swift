import DICore

/// An override that replaces nothing: no container the test container resolves from registers its key, so the
/// app's services, which resolve the keys they were registered with, never see it. The classic case overrides
/// the concrete type (`SystemClock`) where the app registers and resolves a protocol (`any Clock`).
///
/// Checked by `.override(_:name:_:)` before it registers, and reported as a warning: a test may add a service
/// of its own that way on purpose, and then the warning says how to do that without one.
enum OverrideCheck {
    /// The warning for an override of `type` under `name` that `container` (a test container, not yet
    /// overridden) has nothing to replace for; `nil` when it does.
    static func warning<Service>(_ type: Service.Type, name: String?, in container: Container) -> String? {
        guard !container.isRegistered(type, name: name) else { return nil }
        let call = ".override(\(ServiceName.key(type, name: name)))"
        let service = ServiceName.describe(type, name: name)
        let context = LookupContext(container: container, key: RegistrationKey(type, name: name), type: type)
        let searched = context.searchedContainers.joined(separator: " → ")
        var message = "\(call) replaces nothing: no container the test resolves from registers \(service) "
            + "(searched \(searched)), so the services of the app, which resolve the keys they were registered "
            + "with, never get it; only code that resolves \(service) itself does."
        if let meant = context.closeRegistrations().first {
            let registration = meant.registration
            let key = ServiceName.key(registration.serviceType, name: registration.name)
            if let keyPathName = registration.keyPathName {
                // A keypath-registry key is a registration of its own, which a type's override does not replace.
                message += " \(meant.container) provides it as the key \\.\(keyPathName) (\(registration.location)): "
                    + "to replace that, override the key: .override(\\.\(keyPathName)) { … }."
            } else if registration.argumentTypes.isEmpty {
                message += " \(meant.container) registers \(registration.displayName) (\(registration.location)): "
                    + "to replace that, override it: .override(\(key)) { … }."
            } else {
                // The key of a registration includes its argument types, and an override takes none.
                message += " \(meant.container) registers \(registration.displayName) taking "
                    + "\(registration.argumentsTaken) (\(registration.location)), "
                    + "which an override, taking none, cannot replace: register it with the same "
                    + "\(registration.argumentLabel) in the test container instead: .container { try "
                    + "$0.register(\(key)) { (r: any Resolver, \(registration.argumentParameters)) in … } }."
            }
        } else {
            message += " Override the key the app registers (print(app.graph().text()) lists them), or, to add a "
                + "service for this test, register it in .container { … }."
        }
        return message
    }
}
