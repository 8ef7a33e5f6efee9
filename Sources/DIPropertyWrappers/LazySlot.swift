import DICore

/// The once-slot behind `@LazyInject` and `@LazyInjected`: resolved on the first read, then published
/// through an atomic pointer that later reads load without a lock.
///
/// The value lives in memory the slot allocates once and never moves or replaces, so a wrapper can yield a
/// borrow of it (`_read`) and a read costs what a stored property's does.
///
/// No lock is held while the container resolves (a factory may read other lazy properties, or this one in
/// a cycle, which the container reports). If two threads read an unresolved slot at the same moment, both
/// resolve; the first to publish wins and both return its value, so every read sees one instance (a
/// transient factory may run twice). Once published the value is never replaced, so the published box
/// stays valid for the slot's life and the fast path needs no reference counting of the box.
///
/// Why this type is `Sendable` for a `Sendable` service only: the value lives in an `Unsafe.OnceValue`,
/// `Sendable` under the same condition, which keeps a slot of a non-`Sendable` value in one isolation domain.
@usableFromInline
final class LazySlot<Value> {
    /// The resolved value, in memory the slot owns; empty until resolved.
    @usableFromInline let published = Unsafe.OnceValue<Value>()
    @usableFromInline let request: LazyRequest<Value>
    @usableFromInline let wrapper: String
    @usableFromInline let location: SourceLocation
    /// The container captured when the owner was created; dropped once resolved, so that an instance a
    /// container holds does not keep that container alive through its own lazy properties.
    @usableFromInline let captured: Unsafe.DroppableReference<Container>

    // Inlined into the wrappers' initializers, which their owners' modules specialize: made there, the slot
    // costs no runtime lookup of its generic metadata.
    @inlinable
    init(_ request: LazyRequest<Value>, container: Container, wrapper: String, location: SourceLocation) {
        self.request = request
        self.wrapper = wrapper
        self.location = location
        self.captured = Unsafe.DroppableReference(container)
    }

    /// The address of the value, resolving it on the first read; traps with the full diagnostic if that
    /// fails. Valid for the slot's life.
    @inlinable
    var address: UnsafePointer<Value> {
        if let address = published.address { return address }
        return addressResolvingOrTrapping()
    }

    // The first read's path is inlined into the wrappers' `wrappedValue` too, so that it runs specialized for
    // `Value` in the owner's module: generic here, it would resolve through the unspecialized `resolve` and ask
    // the runtime for the metadata of the generic types it touches, a hash-map lookup each.
    @inlinable
    func addressResolvingOrTrapping() -> UnsafePointer<Value> {
        _ = resolveOrTrap()
        return published.address.unsafelyUnwrapped
    }

    @inlinable
    func resolveOrTrap() -> Value {
        do {
            return try resolve()
        } catch {
            injectionFailed(error)
        }
    }

    /// Whether the value was resolved.
    var isResolved: Bool { published.address != nil }

    /// The container the slot resolves from, `nil` once resolved.
    var container: Container? { captured.copy() }

    /// The value, resolving it if needed; throws instead of trapping.
    @inlinable
    func resolve() throws(InjectionError) -> Value {
        if let address = published.address { return address.pointee }
        guard let container = captured.copy() else {
            // Published by another thread between the load and the copy (it publishes, then drops the
            // container).
            return published.address.unsafelyUnwrapped.pointee
        }
        let value: Value
        do {
            value = try resolve(from: container)
        } catch {
            // Another read may have resolved and published while this one failed (the container closed, or a
            // factory threw, in between): every read of the slot sees the one published value.
            if let address = published.address { return address.pointee }
            throw error
        }
        let kept = published.storeIfEmpty(value)
        captured.drop()
        return kept.pointee
    }

    @inlinable
    func resolve(from container: Container) throws(InjectionError) -> Value {
        switch request {
        case .type(let name):
            do {
                return try container.resolve(Value.self, name: name)
            } catch {
                throw InjectionError.resolving(
                    Value.self, name: name, from: container, wrapper: wrapper, location: location, error: error
                )
            }
        case .key(let key):
            do {
                return try container.resolve(key)
            } catch {
                throw InjectionError.resolving(key, from: container, wrapper: wrapper, location: location, error: error)
            }
        }
    }
}

extension LazySlot: Sendable where Value: Sendable {}
