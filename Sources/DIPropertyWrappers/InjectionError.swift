import DICore

/// A property wrapper could not inject its property: the service, the wrapper and the property's
/// declaration, and the container's full diagnostic.
///
/// Wrappers whose property is not optional trap with this description (a missing dependency is a
/// programming error, and DIToolkit never hands out a silent default); the throwing accessors
/// (`try $db.resolve()` on ``LazyInject``, ``LazyInjected`` and ``WeakLazyInject``) throw it instead:
///
/// ```swift
/// do {
///     _ = try model.$database.resolve()
/// } catch {
///     print(error)   // @LazyInject at App/Model.swift:12 could not inject Database "primary" from checkout. …
/// }
/// ```
public struct InjectionError: Error, Sendable, CustomStringConvertible {
    /// What went wrong; a struct so that codes can be added without breaking `switch`es.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name, as printed.
        public let name: String

        /// The container could not resolve the service; ``InjectionError/underlying`` says why.
        public static let resolutionFailed = Code(name: "resolutionFailed")
        /// `@WeakLazyInject` resolved a value that is not a class instance, which cannot be held weakly.
        public static let notAnObject = Code(name: "notAnObject")

        /// The code's name: `resolutionFailed`.
        public var description: String { name }
    }

    /// What went wrong.
    public let code: Code
    /// The wrapper, as written: `@Inject`, `@LazyInject`, `@Injected`, ….
    public let wrapper: String
    /// The service as people write it: `Logger "primary"`, or `\.clock` for a key.
    public let service: String
    /// The type of the service.
    public let requestedType: Any.Type
    /// The container the wrapper resolved from.
    public let container: String
    /// Where the property is declared.
    public let location: SourceLocation
    /// Why resolution failed: usually a `ResolutionError`, with the path, the containers searched and
    /// close matches.
    public let underlying: (any Error)?

    /// The container's diagnostic, when that is what failed.
    public var resolutionError: ResolutionError? { underlying as? ResolutionError }

    /// Whether the wrapper resolved from `Container.shared`.
    private let resolvedFromShared: Bool

    /// Whether the wrapper found nothing in `Container.shared`, which is what `Container.current` is when no
    /// container is bound: the likeliest cause is an owner made outside `withContainer(_:)`.
    private var missedInShared: Bool {
        resolvedFromShared && wrapper != "@Injection"
            && [.notRegistered, .requiredKeyMissing].contains(resolutionError?.code)
    }

    /// Whether a lazy wrapper's first read came after the container it captured closed: typically a request's
    /// container, closed when the response was sent, and a property first read by work that outlived it.
    private var readAfterClose: Bool {
        ["@LazyInject", "@WeakLazyInject", "@LazyInjected"].contains(wrapper)
            && resolutionError?.code == .containerClosed
    }

    /// Whether the service the wrapper asked for has only an `async` factory, which no wrapper can run.
    private var asksForAnAsyncService: Bool {
        resolutionError?.code == .asyncResolutionRequired && resolutionError?.path.count == 1
    }

    /// What `asksForAnAsyncService` adds: the relationship a wrapper can hold instead — of the service itself,
    /// optional when the property was (`AsyncProvider<Store>?` for `Store?`) — in a declaration whose property
    /// is named after the type, since a wrapper never learns its property's name.
    private var asyncHint: String {
        let service = resolutionError?.path.last?.type ?? requestedType
        let optional = TypeKind(requestedType) == .value("an optional") && service != requestedType
        let provider = ServiceName.asyncProvider(of: service) + (optional ? "?" : "")
        let name = resolutionError?.name.map { "(name: \"\($0)\")" } ?? ""
        let property = Self.propertyName(for: service)
        let call = optional ? "try await \(property)?()" : "try await \(property)()"
        return "A property wrapper resolves synchronously: inject \(provider) instead (`@Inject\(name) var "
            + "\(property): \(provider)`) and call `\(call)`."
    }

    /// A property name for a service of `type`, as Swift code names one: `store` for `Store`, `clock` for
    /// `any Clock`, `urlSession` for `URLSession`, `cache` for `Cache<String>`.
    package static func propertyName(for type: Any.Type) -> String {
        var spelled = Substring(ServiceName.protocols(type))
        spelled = spelled.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        let capitals = spelled.prefix { $0.isUppercase }
        guard !capitals.isEmpty else { return spelled.isEmpty ? "service" : String(spelled) }
        // An acronym keeps its last capital for the word after it: URLSession → urlSession.
        let lowered = capitals.count > 1 && capitals.count < spelled.count ? capitals.dropLast() : capitals
        return lowered.lowercased() + spelled.dropFirst(lowered.count)
    }

    /// What `missedInShared` adds: the likeliest cause, and the container to bind when another tree registers
    /// the service.
    private var unboundHint: String {
        let cause = "It resolved from Container.shared, which is what Container.current is when no container is bound"
        guard let holder = resolutionError?.likeliestOtherTree else {
            return cause + ": if \(service) is registered in another container, make the owner inside "
                + "withContainer(thatContainer) { … }."
        }
        return cause + "; \(service) is registered in \(holder): make the owner inside "
            + "withContainer(\(holder)) { … }."
    }

    /// One sentence: the wrapper, where it is declared, and what it could not inject.
    public var message: String {
        switch code {
        case .notAnObject:
            "\(wrapper) at \(location) resolved \(service) from \(container), but the instance is not a class "
                + "instance and cannot be held weakly. Use @LazyInject for value types."
        default:
            "\(wrapper) at \(location) could not inject \(service) from \(container)."
                + (missedInShared ? " " + unboundHint : "")
                + (asksForAnAsyncService ? " " + asyncHint : "")
                + (readAfterClose
                    ? " \(container), the container the owner was made in, is closed: a lazy property resolves on "
                        + "its first read, so read it before \(container) closes, or inject it with @Inject when the "
                        + "owner is made."
                    : "")
        }
    }

    /// The message, then the container's full diagnostic:
    ///
    /// ```text
    /// InjectionError.resolutionFailed: @Inject at App/Model.swift:12 could not inject Database "primary"
    /// from checkout.
    /// ResolutionError.notRegistered: Cannot resolve Database "primary": nothing is registered under that key.
    /// …
    /// ```
    public var description: String {
        guard let underlying else { return "InjectionError.\(code): \(message)" }
        if let resolutionError, let wrapperFix {
            return "InjectionError.\(code): \(message)\n\(resolutionError.description(fix: wrapperFix))"
        }
        return "InjectionError.\(code): \(message)\n\(underlying)"
    }

    /// The way out written in the wrapper, when the registration probably meant is of the very type under another
    /// name (or none): the wrapper names the key, so a `resolve` call is not what to change.
    private var wrapperFix: String? {
        guard let error = resolutionError, error.code == .notRegistered, error.path.count <= 1,
              ["@Inject", "@LazyInject", "@WeakLazyInject", "@Injection"].contains(wrapper),
              let meant = error.likeliestRegistration, meant.registration.serviceType == requestedType,
              meant.registration.argumentTypes.isEmpty
        else { return nil }
        guard let name = meant.registration.name else { return "write \(wrapper) without name: at \(location)" }
        return "write \(wrapper)(name: \"\(name)\") at \(location)"
    }

    package init(
        code: Code,
        wrapper: String,
        service: String,
        requestedType: Any.Type,
        container: String,
        location: SourceLocation,
        underlying: (any Error)?,
        resolvedFromShared: Bool = false
    ) {
        self.resolvedFromShared = resolvedFromShared
        self.code = code
        self.wrapper = wrapper
        self.service = service
        self.requestedType = requestedType
        self.container = container
        self.location = location
        self.underlying = underlying
    }

    /// The error for a failed resolution of `type` under `name`.
    @usableFromInline
    static func resolving(
        _ type: Any.Type,
        name: String? = nil,
        from container: Container,
        wrapper: String,
        location: SourceLocation,
        error: any Error
    ) -> InjectionError {
        InjectionError(
            code: .resolutionFailed, wrapper: wrapper, service: ServiceName.describe(type, name: name),
            requestedType: type, container: container.name, location: location, underlying: error,
            resolvedFromShared: container === Container.shared
        )
    }

    /// The error for a failed resolution of the keypath-registry key `key`.
    @usableFromInline
    static func resolving<Value>(
        _ key: ServiceKeyPath<Value>,
        from container: Container,
        wrapper: String,
        location: SourceLocation,
        error: any Error
    ) -> InjectionError {
        InjectionError(
            code: .resolutionFailed, wrapper: wrapper, service: "\\.\(ServiceKeys()[keyPath: key].name)",
            requestedType: Value.self, container: container.name, location: location, underlying: error,
            resolvedFromShared: container === Container.shared
        )
    }
}

/// Traps with the full diagnostic of a wrapper that could not inject a non-optional property, through
/// DICore's one trapping path (the `resolveRequired` family).
@usableFromInline
func injectionFailed(_ error: InjectionError) -> Never {
    resolveRequiredFailed(error, at: error.location, what: error.wrapper)
}

extension InjectionError: ResolutionErrorWrapper {}
