/// A value registered with `register(_:value:)` in a container that had nothing registered (a request's
/// container, given its request's values), kept without its `Registration` until something needs one.
///
/// A request's container registers its request's values on every request, and most requests read them only
/// through the resolve fast path, which needs a value's box and nothing else. Making the `Registration` (an
/// object of a dozen fields) and the value's body, and freeing both with the container, cost about a
/// thousand instructions per request. The registry makes them only when something other than the fast path
/// asks for the container's registrations — a lookup of the slow path or of diagnostics, a second
/// registration, a publish (`Registry.withState`) — and then once: every asker gets the same registration.
///
/// An object, so that the registry, the handle `register(_:value:)` returns and the fast path's lookup share
/// it for one reference count each; a struct of these fields is copied field by field.
@usableFromInline
package final class PendingValue: Sendable {
    let key: RegistrationKey
    let box: Unsafe.SendableReference<AnyObject>
    let serviceType: Any.Type
    let location: SourceLocation
    /// Makes the value's `ValueBody` around `box`; made in the registering code, where the type is known.
    let makeBody: @Sendable (AnyObject) -> any ServiceBody

    @usableFromInline
    package init(
        key: RegistrationKey,
        box: AnyObject,
        serviceType: Any.Type,
        location: SourceLocation,
        makeBody: @escaping @Sendable (AnyObject) -> any ServiceBody
    ) {
        self.key = key
        self.box = Unsafe.SendableReference(box)
        self.serviceType = serviceType
        self.location = location
        self.makeBody = makeBody
    }

    /// The value's registration, as `register(_:value:)` makes it for a container that already holds some.
    func registration() -> Registration {
        Registration.value(
            key: key, body: makeBody(box.object), serviceType: serviceType, overridable: true, location: location,
            box: box.object
        )
    }
}
