import DICore

/// Strict mode: told about every resolve of a strict test's container, it records a failure the first time
/// the test resolves a registration of the base graph that it neither overrode nor allowed. The live
/// instance is still returned, so the test can finish and show every such service.
struct LiveServiceCheck: ResolutionBehavior {
    let scope: TestScope

    func didResolve(_ info: RegistrationInfo, instance: Any, in container: Container) {
        let test = scope.container
        // Only the base's registrations are live: the test container resolves them as its own, and they are
        // not in its own registry. What a child of the test container registers belongs to the test.
        guard info.container == test.name, !Self.isOwn(info, of: test) else { return }
        guard scope.shouldReport(info) else { return }
        let path = Container.activeResolutionPath.map(\.description) + [info.displayName]
        let isKey = info.displayName.hasPrefix("\\.")
        let key = isKey ? info.displayName : ServiceName.key(info.serviceType, name: info.name)
        scope.fail(
            "Strict test \(scope.testName) resolved the live \(info.displayName), registered at \(info.location), "
                + "through \(path.joined(separator: " → ")). Override it for the test (.override(\(key)) { … } "
                + "or a registration in the test container), or allow it with .allowLive(\(key))."
        )
    }

    private static func isOwn(_ info: RegistrationInfo, of test: Container) -> Bool {
        test.registry.all.contains { registration in
            registration.serviceType == info.serviceType && registration.name == info.name
                && registration.displayName == info.displayName
        }
    }
}
