import DICore

/// Records, for diagnostics, what each factory resolves in a set of containers.
final class EdgeRecorder: ResolutionTap {
    private let containers: Set<ObjectIdentifier>
    private let state = Lock<ObservedEdges>(ObservedEdges())

    init(containers: [Container]) {
        self.containers = Set(containers.map(ObjectIdentifier.init))
    }

    func record(_ event: ResolutionTapEvent) {
        guard containers.contains(ObjectIdentifier(event.asked)), event.error == nil else { return }
        state.withLock { state in
            if event.built, let (target, _) = event.owner.builder(of: event.registration) {
                state.built.insert(ObjectIdentifier(target))
            }
            if let parent = event.parent {
                let dependent = ObjectIdentifier(parent.registration)
                // The target of an optional the same build asked for is recorded as that optional.
                guard !state.optionals.contains(OptionalEdge(dependent, event.registration.key)) else { return }
                state.add(DependencyRef(observed: event.registration), to: dependent)
            }
        }
    }

    /// A relationship is recorded with its kind and target, as `autoregister` records a parameter of its type; an
    /// `Optional<T>` as itself, which the analysis finds absent where `T` is not registered, as the resolve does
    /// (its target's own resolve, which follows, is not recorded again).
    func recordImplicit(
        _ type: Any.Type, name: String?, by parent: (registration: Registration, container: Container),
        asked: Container
    ) {
        guard containers.contains(ObjectIdentifier(asked)) else { return }
        let dependency = Dependency.parameter(type).named(name)
        let dependent = ObjectIdentifier(parent.registration)
        state.withLock { state in
            if let optional = type as? any OptionalMarker.Type {
                let wrapped = RegistrationKey(type: ObjectIdentifier(optional.wrappedType), name: name)
                state.optionals.insert(OptionalEdge(dependent, wrapped))
            }
            state.add(DependencyRef(observed: dependency), to: dependent)
        }
    }

    func markBuilt(_ registration: Registration) {
        state.withLock { _ = $0.built.insert(ObjectIdentifier(registration)) }
    }

    var recorded: ObservedEdges { state.withLock { $0 } }
}
