import DICore

/// The slot behind `@WeakLazyInject`: resolved on the first read, then held weakly.
///
/// The weak reference lives in a mutex (a weak load is not atomic), so every read takes the lock briefly;
/// the container never runs under it.
final class WeakSlot<Value> {
    private struct State {
        /// The container captured when the owner was created; `nil` once resolved.
        var container: Container?
        weak var object: AnyObject?
    }

    private let state: Lock<State>
    private let name: String?
    private let location: SourceLocation

    init(name: String?, container: Container, location: SourceLocation) {
        self.name = name
        self.location = location
        state = Lock(State(container: container))
    }

    /// The object, resolving it on the first read; `nil` once it was released.
    func resolve() throws(InjectionError) -> Value? {
        let step = state.withLock { state -> WeakSlotStep in
            guard let container = state.container else {
                return .resolved(object: state.object.map(Unsafe.SendableReference.init))
            }
            return .resolve(from: container)
        }
        switch step {
        case .resolved(let reference):
            return reference.map { $0.object as! Value }
        case .resolve(let container):
            let value: Value
            do {
                value = try container.resolve(Value.self, name: name)
            } catch {
                // Another read may have resolved while this one failed (the container closed, or a factory threw,
                // in between): every reader sees its object.
                let meanwhile = state.withLock { state -> WeakSlotStep? in
                    state.container == nil ? .resolved(object: state.object.map(Unsafe.SendableReference.init)) : nil
                }
                if case .resolved(let reference) = meanwhile { return reference.map { $0.object as! Value } }
                throw InjectionError.resolving(
                    Value.self, name: name, from: container, wrapper: "@WeakLazyInject", location: location,
                    error: error
                )
            }
            guard type(of: value as Any) is AnyClass else {
                throw InjectionError(
                    code: .notAnObject, wrapper: "@WeakLazyInject",
                    service: ServiceName.describe(Value.self, name: name), requestedType: Value.self,
                    container: container.name, location: location, underlying: nil
                )
            }
            let mine = Unsafe.SendableReference(value as AnyObject)
            let kept = state.withLock { state -> Unsafe.SendableReference<AnyObject>? in
                if state.container == nil {
                    // Another thread resolved first: every reader sees its object.
                    return state.object.map(Unsafe.SendableReference.init)
                }
                state.object = mine.object
                state.container = nil
                return mine
            }
            return kept.map { $0.object as! Value }
        }
    }

    /// Whether the first read happened.
    var isResolved: Bool { state.withLock { $0.container == nil } }
}

extension WeakSlot: Sendable where Value: Sendable {}

/// What a read of a `WeakSlot` does after looking at its state under the lock.
private enum WeakSlotStep {
    /// The object kept (`nil` once released), crossing the lock as the value the caller reads.
    case resolved(object: Unsafe.SendableReference<AnyObject>?)
    case resolve(from: Container)
}
