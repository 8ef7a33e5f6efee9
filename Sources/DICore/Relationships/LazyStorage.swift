/// What a `Lazy` shares between its copies: the once-slot its value is published in, and what it needs to
/// resolve it.
///
/// The slot is an `InstanceSlot` with lock-free reads, the one a singleton uses, so the first read goes
/// through the same build-and-wait state machine (`BuildCoordinator`): exactly once under concurrency, a
/// cycle reported instead of a hang, no lock held while resolving.
///
/// Why this class is `Sendable` whatever `Service` is: the value lives in the slot as an `InstanceBox`
/// behind the slot's `Unsafe.AtomicReference`; only `Lazy`, which is `Sendable` for a `Sendable` service
/// alone, hands it out.
@usableFromInline
final class LazyStorage<Service>: Sendable {
    /// What the first read resolves: a type under a name, or a key of the keypath registry.
    enum Request: Sendable {
        case type(name: String?)
        case key(ServiceKeyPath<Service>)

        var name: String? {
            if case .type(let name) = self { return name }
            return nil
        }
    }

    @usableFromInline let slot = InstanceSlot(retention: .strong, lockFreeReads: true)
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
        _ = try? slot.once(describedBy: target, resolution: .currentThread) { InstanceBox(value) }
    }

    /// The first read (or one racing it): resolves once, or waits for the read that does.
    @usableFromInline @inline(never)
    func resolve() throws -> Service {
        do {
            let (box, _) = try slot.once(describedBy: target, resolution: .currentThread) {
                guard let container else { throw origin.released(Service.self, name: request.name) }
                switch request {
                case .type(let name): return InstanceBox(try container.resolve(Service.self, name: name))
                case .key(let key): return InstanceBox(try container.resolve(key))
                }
            }
            return unsafeDowncast(box, to: InstanceBox<Service>.self).value
        } catch {
            throw origin.deferring(error)
        }
    }
}
