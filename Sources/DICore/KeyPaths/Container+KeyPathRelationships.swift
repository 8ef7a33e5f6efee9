extension Container {
    /// A ``Lazy`` of a key of the keypath registry: the key is resolved on the first read, then kept.
    ///
    /// ```swift
    /// extension ServiceKeys {
    ///     var clock: ServiceKey<any Clock> { .init(scope: .singleton) { _ in SystemClock() } }
    /// }
    /// let clock = try checkout.lazy(\.clock)
    /// let now = try clock.value.now
    /// ```
    ///
    /// The first read resolves as `resolve(\.key)` does, from this container: its nearest registration of the
    /// key, else the key's default. As with `Lazy<T>` of a type, a key nobody can provide fails now, not at the
    /// first read: a `.required()` key that no container on the path registered throws here.
    ///
    /// - Parameter key: The key path of the key: `\.clock`.
    /// - Returns: A `Lazy` that resolves the key from this container.
    /// - Throws: `ResolutionError` — `requiredKeyMissing` for a `.required()` key that no container on the
    ///   path registered, `containerClosed` for a closed container.
    public func lazy<Service>(_ key: ServiceKeyPath<Service>) throws -> Lazy<Service> {
        try Lazy.make(key: key, from: self)
    }

    /// A ``Provider`` of a key of the keypath registry: each call resolves the key again, honouring its
    /// lifetime.
    ///
    /// ```swift
    /// extension ServiceKeys {
    ///     var formatter: ServiceKey<Formatter> { .init { _ in Formatter() } }      // transient
    /// }
    /// let formatters = try app.provider(\.formatter)
    /// let first = try formatters(), second = try formatters()   // two formatters
    /// ```
    ///
    /// Each call resolves as `resolve(\.key)` does, from this container. A key nobody can provide fails now,
    /// not at the first call: a `.required()` key that no container on the path registered throws here.
    ///
    /// - Parameter key: The key path of the key: `\.formatter`.
    /// - Returns: A `Provider` that resolves the key from this container.
    /// - Throws: `ResolutionError` — `requiredKeyMissing` for a `.required()` key that no container on the
    ///   path registered, `containerClosed` for a closed container.
    public func provider<Service>(_ key: ServiceKeyPath<Service>) throws -> Provider<Service> {
        let target = try registration(for: key)
        let origin = RelationshipOrigin(Provider<Service>.self, kind: .perCall, name: nil, target: target, in: self)
        return Provider(storage: ProviderStorage(
            container: self, name: nil, request: .key(KeyRequest(key)), origin: origin
        ))
    }
}

extension Resolver {
    /// A ``Lazy`` of a key of the keypath registry, from inside a factory: to break a cycle through a key, or
    /// to defer an expensive one.
    ///
    /// ```swift
    /// try app.register(Scheduler.self) { r in Scheduler(clock: try r.lazy(\.clock)) }
    /// ```
    ///
    /// - Parameter key: The key path of the key: `\.clock`.
    /// - Returns: A `Lazy` that resolves the key from the container this resolver stands for.
    /// - Throws: `ResolutionError`, as `Container.lazy(\.key)` does.
    public func lazy<Service>(_ key: ServiceKeyPath<Service>) throws -> Lazy<Service> {
        try keyPathContainer(for: Lazy<Service>.self).lazy(key)
    }

    /// A ``Provider`` of a key of the keypath registry, from inside a factory.
    ///
    /// ```swift
    /// try app.register(Printer.self) { r in Printer(formatters: try r.provider(\.formatter)) }
    /// ```
    ///
    /// - Parameter key: The key path of the key: `\.formatter`.
    /// - Returns: A `Provider` that resolves the key from the container this resolver stands for.
    /// - Throws: `ResolutionError`, as `Container.provider(\.key)` does.
    public func provider<Service>(_ key: ServiceKeyPath<Service>) throws -> Provider<Service> {
        try keyPathContainer(for: Provider<Service>.self).provider(key)
    }

    /// This resolver as the `Container` that keys of the keypath registry resolve through.
    private func keyPathContainer(for type: Any.Type) throws -> Container {
        guard let container = self as? Container else {
            throw ResolutionError(
                code: .notRegistered,
                requestedType: type,
                name: nil,
                path: ResolutionStack.current.path,
                detail: "Keys of the keypath registry resolve through a Container; \(Swift.type(of: self)) is not one."
            )
        }
        return container
    }
}
