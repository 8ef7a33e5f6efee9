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
                state.add(DependencyRef(observed: event.registration), to: ObjectIdentifier(parent.registration))
            }
        }
    }

    func markBuilt(_ registration: Registration) {
        state.withLock { _ = $0.built.insert(ObjectIdentifier(registration)) }
    }

    var recorded: ObservedEdges { state.withLock { $0 } }
}
