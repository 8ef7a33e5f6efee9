/// The extension point behind `Scope`: the lifetimes of `DIScopes` conform to it.
@usableFromInline
package protocol LifetimeStrategy: Sendable {
    /// Whether instances outlive one resolve and are shared across threads.
    var keepsInstances: Bool { get }

    /// The tag of the container that holds each instance, for a lifetime that keeps one instance per nearest
    /// container with a tag (`.matching(tag)`); `nil` for any other. A container with the tag then places the
    /// instances itself, in its own slots, without asking the lifetime.
    var holderTag: String? { get }

    /// Checks a registration when it is made; `.weak`, for instance, refuses value types.
    func validate(_ registration: Registration) throws(RegistrationError)

    /// Checks a registration when it is made in `container` (named in messages); what `add` calls. By default
    /// it calls `validate(_:)`.
    func validate(_ registration: Registration, in container: Container) throws(RegistrationError)

    /// Decides, for one request, which slot holds the instance and which container builds it.
    func placement(
        for registration: Registration,
        registeredIn: Container,
        requestedFrom: Container,
        resolution: ResolutionScope
    ) throws -> LifetimePlacement

    /// Called when `registration`, made in `container`, stops being served: it was replaced, or `container` is
    /// being closed. Returns the instances the lifetime kept outside held slots (custom storages), to dispose.
    func release(_ registration: Registration, in container: Container) -> [Any]
}

extension LifetimeStrategy {
    package var holderTag: String? { nil }

    package func validate(_ registration: Registration) throws(RegistrationError) {}

    package func validate(_ registration: Registration, in container: Container) throws(RegistrationError) {
        try validate(registration)
    }

    package func release(_ registration: Registration, in container: Container) -> [Any] { [] }
}
