#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the code is running — the live app, a preview, or a test — for registrations that branch on it.
///
/// ```swift
/// try app.register(Clock.self, scope: .singleton) { _ in
///     switch Container.context {
///     case .live: SystemClock()
///     case .preview, .test: FixedClock()
///     }
/// }
/// ```
///
/// Inside a test container (and the children made below one) the context is always ``test``. Elsewhere it
/// is ``live``, unless the environment variable `DI_CONTEXT` says `live`, `preview` or `test` (read once,
/// case-insensitively), so that a preview or UI-test build can choose without code.
public enum ContainerContext: String, Sendable, Hashable, CaseIterable {
    /// The running app: real services.
    case live
    /// A preview (an Xcode preview, a demo build): canned data, no network.
    case preview
    /// A test: fakes, unless the test allows a live service.
    case test

    /// The context named by `DI_CONTEXT` in `environment`, or `nil` when it is absent or unknown.
    package static func named(in environment: (String) -> String?) -> ContainerContext? {
        guard let value = environment("DI_CONTEXT") else { return nil }
        return ContainerContext(rawValue: value.lowercased())
    }

    /// The context outside test containers: `DI_CONTEXT`, else ``live``.
    package static let process: ContainerContext =
        named { getenv($0).map { String(cString: $0) } } ?? .live
}

extension Container {
    /// The context this container runs in: ``ContainerContext/test`` inside a test container (or below
    /// one), else `DI_CONTEXT` or ``ContainerContext/live``.
    ///
    /// ```swift
    /// try app.register(Analytics.self) { r in
    ///     (r as? Container)?.context == .live ? Telemetry() : SilentAnalytics()
    /// }
    /// ```
    public var context: ContainerContext {
        isInTestContainer ? .test : ContainerContext.process
    }

    /// The context of the container code runs against right now: inside a factory, the container its
    /// dependencies come from; elsewhere ``Container/current``.
    ///
    /// ```swift
    /// try app.register(Clock.self, scope: .singleton) { _ in
    ///     Container.context == .live ? SystemClock() : FixedClock()
    /// }
    /// ```
    public static var context: ContainerContext { ambient.context }
}
