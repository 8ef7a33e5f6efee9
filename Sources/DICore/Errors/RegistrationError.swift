/// A registration was refused; the container is unchanged.
///
/// ```swift
/// try app.register(Int.self, overridable: false) { _ in 42 }
/// do {
///     try app.register(Int.self) { _ in 0 }
/// } catch let error as RegistrationError where error.code == .alreadyRegistered {
///     print(error)   // names both registrations and where each was made
/// }
/// ```
public struct RegistrationError: Error, Sendable, CustomStringConvertible {
    /// What went wrong; a struct so that codes can be added without breaking `switch`es.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// Every code, so that the module can switch over them exhaustively; callers compare with `==`, which
        /// lets later versions add codes without breaking their code.
        package enum Kind: String, Sendable {
            case alreadyRegistered
            case invalidScope
            case containerClosed
            case typeMismatch
            case assemblyFailed
            case behaviorFailed
        }

        /// Which code this is.
        package let kind: Kind

        /// The code's name, as printed: `alreadyRegistered`.
        public var name: String { kind.rawValue }

        /// The key is registered with `overridable: false`, or a non-overridable registration would
        /// replace an existing one.
        public static let alreadyRegistered = Code(kind: .alreadyRegistered)
        /// The lifetime cannot hold this service (for example `.weak` for a value type).
        public static let invalidScope = Code(kind: .invalidScope)
        /// The container is closed and takes no more registrations.
        public static let containerClosed = Code(kind: .containerClosed)
        /// An alias type does not fit the registration it names.
        public static let typeMismatch = Code(kind: .typeMismatch)
        /// An assembly threw while assembling or loading.
        public static let assemblyFailed = Code(kind: .assemblyFailed)
        /// A behaviour threw while observing a registration.
        public static let behaviorFailed = Code(kind: .behaviorFailed)

        /// The code's name, as printed: `alreadyRegistered`.
        public var description: String { kind.rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// The service being registered.
    public let service: String
    /// The container registered into.
    public let container: String
    /// Where the refused registration was made.
    public let location: SourceLocation
    /// The registration that stood in the way, if any, and where it was made.
    public let existing: SourceLocation?
    /// The error from an assembly or behaviour, if that is what failed.
    public let underlying: (any Error)?
    /// The whole explanation, one sentence per fact, ending with the way out.
    public let message: String

    package init(
        code: Code,
        service: String,
        container: String,
        location: SourceLocation,
        existing: SourceLocation? = nil,
        underlying: (any Error)? = nil,
        message: String
    ) {
        self.code = code
        self.service = service
        self.container = container
        self.location = location
        self.existing = existing
        self.underlying = underlying
        self.message = message
    }

    /// `RegistrationError.<code>: <message>`.
    public var description: String { "RegistrationError.\(code): \(message)" }

    /// `typeMismatch` for `.implements(alias)` on `registration`, which takes runtime arguments.
    static func aliasOfArguments(
        _ alias: Any.Type, name: String?, of registration: Registration, in container: Container,
        at location: SourceLocation
    ) -> RegistrationError {
        // An alias takes the registration's name unless it is given one.
        let name = name ?? registration.key.name
        let (shown, aliasShown) = (registration.displayName, ServiceName.describe(alias, name: name))
        let label = registration.argumentLabel
        return RegistrationError(
            code: .typeMismatch,
            service: aliasShown,
            container: container.name,
            location: location,
            existing: registration.location,
            message: "Cannot expose \(shown) as \(aliasShown) at \(location): \(shown) takes runtime arguments "
                + "(\(registration.argumentList)), registered at \(registration.location), and an alias is "
                + "resolved without them, so every resolve of \(aliasShown) would fail. Register "
                + "\(ServiceName.metatype(alias)) with the same \(label), building \(shown) in its factory — try "
                + "container.register(\(ServiceName.key(alias, name: name))) { (r: any Resolver, "
                + "\(registration.argumentParameters)) in "
                + "… } — or resolve \(shown) with its \(label) where you need \(aliasShown)."
        )
    }

    static func alreadyRegistered(
        _ registration: Registration,
        over existing: Registration,
        in container: String,
        _ message: String
    ) -> RegistrationError {
        RegistrationError(
            code: .alreadyRegistered,
            service: registration.displayName,
            container: container,
            location: registration.location,
            existing: existing.location,
            message: message
        )
    }

    /// `registration` refused by the closed `container`, with why it is closed and the way out.
    static func closed(_ registration: Registration, in container: Container) -> RegistrationError {
        RegistrationError(
            code: .containerClosed,
            service: registration.displayName,
            container: container.name,
            location: registration.location,
            message: "Cannot register \(registration.displayName) at \(registration.location): "
                + container.closedDetail(.register)
        )
    }
}
