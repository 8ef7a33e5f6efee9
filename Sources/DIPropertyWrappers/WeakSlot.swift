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
                return .resolved(object: state.object.map(Self.retainedBits) ?? 0)
            }
            return .resolve(from: container)
        }
        switch step {
        case .resolved(let bits):
            return bits == 0 ? nil : Self.take(bits)
        case .resolve(let container):
            let value: Value
            do {
                value = try container.resolve(Value.self, name: name)
            } catch {
                throw InjectionError.resolving(
                    Value.self, name: name, from: container, wrapper: "@WeakLazyInject", location: location,
                    error: error
                )
            }
            guard type(of: value as Any) is AnyClass else {
                throw InjectionError(
                    code: .notAnObject, wrapper: "@WeakLazyInject",
                    service: name.map { "\(Value.self) \"\($0)\"" } ?? "\(Value.self)", requestedType: Value.self,
                    container: container.name, location: location, underlying: nil
                )
            }
            let mine = Self.retainedBits(value as AnyObject)
            let kept = state.withLock { state -> UInt in
                if state.container == nil {
                    // Another thread resolved first: every reader sees its object.
                    return state.object.map(Self.retainedBits) ?? 0
                }
                let object = Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: mine)!)
                    .takeUnretainedValue()
                state.object = object
                state.container = nil
                return Self.retainedBits(object)
            }
            Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: mine)!).release()
            return kept == 0 ? nil : Self.take(kept)
        }
    }

    /// Whether the first read happened.
    var isResolved: Bool { state.withLock { $0.container == nil } }

    /// Bits of a +1 reference, so that an object crosses the mutex boundary as a `Sendable` integer.
    private static func retainedBits(_ object: AnyObject) -> UInt {
        UInt(bitPattern: Unmanaged.passRetained(object).toOpaque())
    }

    private static func take(_ bits: UInt) -> Value {
        Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).takeRetainedValue() as! Value
    }
}

extension WeakSlot: Sendable where Value: Sendable {}

/// What a read of a `WeakSlot` does after looking at its state under the lock.
private enum WeakSlotStep {
    case resolved(object: UInt)
    case resolve(from: Container)
}
