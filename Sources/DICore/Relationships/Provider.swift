/// Resolves a service again on every call: inject `Provider<T>` to get a new transient (or the one
/// singleton) each time, or `Provider<T, Argument…>` to build a service registered with runtime arguments.
///
/// ```swift
/// final class Checkout: Sendable {
///     let receipts: Provider<Receipt>
///     let makeReport: Provider<Report, String>          // registered with a String argument
///     init(receipts: Provider<Receipt>, makeReport: Provider<Report, String>) { … }
/// }
/// let receipt = try checkout.receipts()
/// let report = try checkout.makeReport("2026-Q3")      // a wrong argument type does not compile
/// ```
///
/// A `Provider` needs no registration of its own: any registered `T` can be injected as `Provider<T>`, and
/// any `T` registered with arguments `(A, B)` as `Provider<T, A, B>`. It is made when its owner is built and
/// fails then if nothing is registered under that key. Each call resolves from the container that was asked
/// for the `Provider` (inside a factory, the one its `Resolver` stands for), honouring `T`'s lifetime: a
/// singleton stays one instance, a transient is new on each call.
///
/// A cycle through a `Provider` is no construction cycle as long as the owner does not call it while being
/// built. An error from a call names the path from the owner that received the `Provider`, with the
/// `Provider` step marked deferred (``PathElement/isDeferred``).
///
/// A `Provider` keeps no instance, so it is `Sendable` for any service. It holds its container weakly (a
/// service a container keeps must not keep that container alive through its own relationships): a call after
/// the container was released throws `containerClosed`.
/// A key of the keypath registry is injected as a provider with `provider(_:)`: `try r.provider(\.clock)`. A
/// service registered with `registerAsync` is injected as an ``AsyncProvider`` instead. A test that builds an
/// owner by hand passes `Provider { … }`.
public struct Provider<Service, each Argument>: Sendable {
    @usableFromInline let storage: ProviderStorage

    init(storage: ProviderStorage) {
        self.storage = storage
    }

    /// A provider that calls `body`, for tests that build an owner by hand.
    ///
    /// ```swift
    /// let checkout = Checkout(
    ///     receipts: Provider { Receipt() },
    ///     makeReport: Provider { quarter in Report(quarter: quarter) }
    /// )
    /// ```
    ///
    /// It belongs to no container: each call runs `body` with the call's arguments.
    ///
    /// - Parameters:
    ///   - fileID: The file of the call, printed in diagnostics; leave the default.
    ///   - line: The line of the call, printed in diagnostics; leave the default.
    ///   - body: Makes the service from the call's arguments.
    public init(
        fileID: String = #fileID,
        line: Int = #line,
        _ body: @escaping @Sendable (repeat each Argument) throws -> Service
    ) {
        // Kept type-erased: a function value whose parameters are a pack cannot be stored in a generic value
        // whose layout every context agrees on.
        let erased: @Sendable (Any) throws -> Any = { packed in
            let arguments = packed as! (repeat each Argument)
            return try body(repeat each arguments)
        }
        storage = ProviderStorage(
            handBuilt: erased,
            origin: RelationshipOrigin(
                handBuilt: Provider<Service, repeat each Argument>.self, kind: .perCall,
                location: SourceLocation(fileID: fileID, line: line)
            )
        )
    }

    /// Resolves the service, passing `arguments` to a factory registered with runtime arguments.
    ///
    /// ```swift
    /// let receipt = try receipts()
    /// let report = try makeReport("2026-Q3")
    /// ```
    ///
    /// - Parameter arguments: The runtime arguments, of the types the provider was declared with.
    /// - Throws: `ResolutionError`; its path starts at the owner that received the `Provider`.
    @inlinable
    public func callAsFunction(_ arguments: repeat each Argument) throws -> Service {
        do {
            switch storage.request {
            case .type:
                return try storage.container(resolving: Service.self).resolve(Service.self, name: storage.name)
            case .arguments:
                return try storage.container(resolving: Service.self)
                    .resolve(Service.self, name: storage.name, arguments: repeat each arguments)
            case .key:
                return try storage.resolveKey(as: Service.self, from: storage.container(resolving: Service.self))
            case .handBuilt(let body):
                return try body((repeat each arguments)) as! Service
            }
        } catch {
            throw storage.deferring(error)
        }
    }
}

extension Provider: RelationshipService {
    static var dependency: Dependency {
        argumentCount == 0
            ? Dependency(Service.self, kind: .perCall)
            : Dependency(Service.self, kind: .assisted, arguments: (repeat each Argument).self)
    }

    static var argumentCount: Int {
        var count = 0
        for _ in repeat (each Argument).self { count += 1 }
        return count
    }

    static func make(from container: Container, name: String?) throws -> Provider<Service, repeat each Argument> {
        let takesArguments = argumentCount > 0
        let target = try container.relationshipTarget(
            Service.self, name: name, arguments: takesArguments ? (repeat each Argument).self : nil,
            for: Provider<Service, repeat each Argument>.self
        )
        let origin = RelationshipOrigin(
            Provider<Service, repeat each Argument>.self, kind: takesArguments ? .assisted : .perCall,
            name: name, target: target, in: container
        )
        if !takesArguments, container.buildsOnlyAsynchronously(target) {
            throw container.asyncOnly(target, for: "Provider", Service.self, name: name, origin: origin)
        }
        return Provider(storage: ProviderStorage(
            container: container, name: name, request: takesArguments ? .arguments : .type, origin: origin
        ))
    }

    static func isAvailable(in container: Container, name: String?) -> Bool {
        let arguments = argumentCount > 0 ? (repeat each Argument).self : nil
        return (try? container.relationshipTarget(
            Service.self, name: name, arguments: arguments, for: Provider<Service, repeat each Argument>.self
        )) != nil
    }
}

/// The key a `Provider` of a keypath-registry key resolves, kept with its service type.
final class KeyRequest<Service>: Sendable {
    let key: ServiceKeyPath<Service>

    init(_ key: ServiceKeyPath<Service>) { self.key = key }
}
