/// What a `Lazy` shares between its copies: the value once it is resolved, and what it needs to resolve it.
///
/// The first read builds through an `InstanceSlot`, the one a singleton uses, so it goes through the same
/// build-and-wait state machine (`BuildCoordinator`): exactly once under concurrency, a cycle reported
/// instead of a hang, no lock held while resolving. The built value is then published in an
/// `Unsafe.OnceValue`, which later reads borrow in place: one atomic load and the value, as a stored property
/// costs, instead of the slot's box, its cast and a second pointer hop.
///
/// `Sendable` when `Service` is, as `Lazy` is: the published value is an `Unsafe.OnceValue`, `Sendable`
/// under the same condition, and the slot keeps its box behind an `Unsafe.AtomicReference`.
@usableFromInline
final class LazyStorage<Service> {
    /// What the first read resolves: a type under a name, or a key of the keypath registry.
    enum Request: Sendable {
        case type(name: String?)
        case key(ServiceKeyPath<Service>)

        var name: String? {
            if case .type(let name) = self { return name }
            return nil
        }
    }

    /// The resolved value; empty until a read succeeds, then never replaced.
    @usableFromInline let published = Unsafe.OnceValue<Service>()
    /// Where the first read builds: readers that arrive during that build wait here, and a read of the
    /// `Lazy` from inside its own target's build finds the build under way (a cycle).
    private let slot = InstanceSlot(retention: .strong, lockFreeReads: true)
    /// The target's registration when the `Lazy` was made; it names the build in cycle errors.
    private let target: Registration
    private let request: Request
    private let origin: RelationshipOrigin
    /// The container to resolve from, held weakly: an instance a container holds must not keep that
    /// container alive through its own `Lazy` properties.
    private weak let container: Container?

    init(target: Registration, request: Request, container: Container) {
        self.target = target
        self.request = request
        origin = RelationshipOrigin(
            Lazy<Service>.self, kind: .deferred, name: request.name, target: target, in: container
        )
        self.container = container
    }

    /// A storage resolved to `value` from the start, in no container.
    init(value: Service, location: SourceLocation) {
        target = Container.standIn(for: Service.self, key: RegistrationKey(Service.self, name: nil))
        request = .type(name: nil)
        origin = RelationshipOrigin(handBuilt: Lazy<Service>.self, kind: .deferred, location: location)
        container = nil
        _ = published.storeIfEmpty(value)
    }

    /// The address of the resolved value, `nil` until a read succeeds; valid for the storage's life.
    @inlinable @inline(__always)
    var address: UnsafePointer<Service>? { published.address }

    /// The first read (or one racing it): resolves once, or waits for the read that does, then publishes the
    /// value. Returns the address of the published value, valid for the storage's life.
    @usableFromInline @inline(never)
    func resolve() throws -> UnsafePointer<Service> {
        if let address = published.address { return address }
        do {
            let (box, _) = try slot.once(describedBy: target, resolution: .currentThread) {
                guard let container else { throw origin.released(Service.self, name: request.name) }
                switch request {
                case .type(let name): return InstanceBox(try container.resolve(Service.self, name: name))
                case .key(let key): return InstanceBox(try container.resolve(key))
                }
            }
            // The builder and every reader that waited for it publish the same box's value; the first store
            // wins and the others get its address.
            return published.storeIfEmpty(unsafeDowncast(box, to: InstanceBox<Service>.self).value)
        } catch {
            throw origin.deferring(error)
        }
    }
}

extension LazyStorage: Sendable where Service: Sendable {}
