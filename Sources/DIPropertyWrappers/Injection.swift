import DICore

/// Injects a service from the owner's own container, on the first read of the property.
///
/// For classes that are handed their container instead of using the ambient one: the owner conforms to
/// ``ContainerProviding``, and each `@Injection` property resolves from `owner.container` when it is first
/// read, then keeps the instance. Setting the property by hand replaces it (a value set before the first
/// read means the container is never asked).
///
/// ```swift
/// final class CheckoutModel: ContainerProviding {
///     let container: Container
///     @Injection var payments: any PaymentService
///     @Injection(name: "audit") var log: any Logger
///
///     init(container: Container) { self.container = container }
/// }
///
/// let model = CheckoutModel(container: checkout)
/// model.payments.charge(10)           // resolved from checkout now
/// model.payments = FakePayments()     // set by hand: wins
/// ```
///
/// It works through the enclosing-instance subscript of property wrappers, so only in classes, and no macro
/// is involved. A read that cannot resolve the service **traps** with the container's full diagnostic and
/// the property's file and line; an optional property is `nil` when nothing is registered. Reads are not
/// synchronised: like any stored property of the owner, use it from one isolation domain at a time (a
/// `@MainActor` owner is the usual way).
@propertyWrapper
public struct Injection<Value> {
    @usableFromInline var stored: Value?
    @usableFromInline let name: String?
    @usableFromInline let location: SourceLocation

    /// Declares a property resolved from the owner's container under `name` on its first read.
    ///
    /// ```swift
    /// @Injection(name: "audit") var log: any Logger
    /// ```
    ///
    /// - Parameters:
    ///   - name: The registration name; `nil` for the unnamed registration.
    ///   - fileID: The property's file, printed if it cannot be injected; leave the default.
    ///   - line: The property's line, printed if it cannot be injected; leave the default.
    public init(name: String? = nil, fileID: String = #fileID, line: Int = #line) {
        self.stored = nil
        self.name = name
        self.location = SourceLocation(fileID: fileID, line: line)
    }

    /// Unavailable: `@Injection` needs its owner's container, which only a class conforming to
    /// ``ContainerProviding`` provides.
    @available(*, unavailable, message: "@Injection is for properties of classes that conform to ContainerProviding")
    public var wrappedValue: Value {
        get { injectionFailed(Self.noOwner(location)) }
        set {}
    }

    /// The property's value: the one set by hand or resolved earlier, else the service resolved now from
    /// `owner.container`.
    ///
    /// - Parameters:
    ///   - owner: The instance whose property is read.
    ///   - wrapped: The key path of the property.
    ///   - storage: The key path of this wrapper in the owner.
    public static subscript<Owner: ContainerProviding>(
        _enclosingInstance owner: Owner,
        wrapped wrapped: ReferenceWritableKeyPath<Owner, Value>,
        storage storage: ReferenceWritableKeyPath<Owner, Injection<Value>>
    ) -> Value {
        get {
            let wrapper = owner[keyPath: storage]
            if let stored = wrapper.stored { return stored }
            do {
                let value = try wrapper.resolve(from: owner.container)
                owner[keyPath: storage].stored = value
                return value
            } catch {
                injectionFailed(error)
            }
        }
        set {
            owner[keyPath: storage].stored = newValue
        }
    }

    /// What a first read does, throwing instead of trapping.
    package func resolve(from container: Container) throws(InjectionError) -> Value {
        do {
            return try container.resolve(Value.self, name: name)
        } catch {
            throw InjectionError.resolving(
                Value.self, name: name, from: container, wrapper: "@Injection", location: location, error: error
            )
        }
    }

    private static func noOwner(_ location: SourceLocation) -> InjectionError {
        InjectionError(
            code: .resolutionFailed, wrapper: "@Injection", service: ServiceName.readable(Value.self),
            requestedType: Value.self, container: "no container", location: location, underlying: nil
        )
    }
}

extension Injection: Sendable where Value: Sendable {}
