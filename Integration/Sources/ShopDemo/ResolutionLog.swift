import DICore
import Synchronization

/// Records every resolution a container tree makes, so the demo can print, step by step, what was resolved,
/// which container asked, which container it was registered in, its lifetime, and whether the instance was
/// new or reused.
///
/// A `ResolutionBehavior` is told about each finished resolve, dependencies first, sync and `async` alike.
final class ResolutionLog: ResolutionBehavior {
    struct Entry {
        let service: String
        let lifetime: String
        let askedBy: String
        let registeredIn: String
        let isNew: Bool
    }

    private struct State {
        var entries: [Entry] = []
        var seenObjects: Set<ObjectIdentifier> = []
        var seenValues: Set<String> = []
    }

    private let state = Mutex(State())

    func didResolve(_ info: RegistrationInfo, instance: Any, in container: Container) {
        state.withLock { state in
            let isNew: Bool
            if info.scope == .transient {
                isNew = true
            } else if type(of: instance) is AnyClass {
                isNew = state.seenObjects.insert(ObjectIdentifier(instance as AnyObject)).inserted
            } else {
                // A value kept by a lifetime: new the first time its registration is seen from this container.
                isNew = state.seenValues.insert("\(info.displayName)|\(info.container)|\(container.name)").inserted
            }
            state.entries.append(
                Entry(
                    service: info.displayName, lifetime: info.scope.name, askedBy: container.name,
                    registeredIn: info.container, isNew: isNew
                )
            )
        }
    }

    /// Returns the entries recorded since the last call, and forgets them.
    func drain() -> [Entry] {
        state.withLock { state in
            defer { state.entries.removeAll() }
            return state.entries
        }
    }
}
