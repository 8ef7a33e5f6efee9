#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Holds the one instance of a registration in one place (a container, a resolve), built exactly once even
/// when many threads or tasks ask at the same moment.
///
/// A builder holds the slot's `gate` while its factory runs; that gate guards only this slot, never the
/// container, so the factory may register, resolve and create children freely. A second asker waits on the
/// gate, after checking the waits-for graph (`BuildWaits`): if the builder is, directly or through others,
/// waiting for the asker, the asker gets a cycle error instead of a deadlock.
///
/// A `.singleton` slot (`lockFreeReads`) also publishes its instance through an atomic pointer that the
/// resolve fast path reads without a lock; such a slot is never reset, so the pointer stays valid for the
/// slot's life. Other slots are read under their lock and can be reset.
@usableFromInline
package final class InstanceSlot: Sendable {
    package enum Retention: Sendable {
        case strong
        /// Holds the instance weakly: shared while somebody else keeps it.
        case weak
    }

    package let retention: Retention
    /// `Unmanaged<InstanceBox<Service>>` bits, retained; `0` until built. Only for `lockFreeReads` slots.
    @usableFromInline package let published = Atomic<UInt>(0)
    private let lockFreeReads: Bool
    private let state = Lock(State())
    /// Held by the builder while its factory runs. Its state is a dummy `Bool`, not `()`: with `Lock<()>`,
    /// ThreadSanitizer reported "Swift access race" on the lock object's own address (the inout access to
    /// the zero-sized state against an unlocked 8-byte read in `withLock`) whenever threads met at the gate;
    /// a state with a size makes those reports go away.
    private let gate = Lock(false)

    private struct State {
        /// `Unmanaged` bits of the box, retained by the state; `0` when empty. Bits, not a reference, so that
        /// the state stays `Sendable` without claiming anything about the service type.
        var box: UInt = 0
        /// The instance of a `.weak` slot, as `Unmanaged` bits of a weak reference box.
        var object: WeakObject?
        var builder: Int?
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    package init(retention: Retention, lockFreeReads: Bool) {
        self.retention = retention
        self.lockFreeReads = lockFreeReads && retention == .strong
    }

    deinit {
        let bits = published.load(ordering: .acquiring)
        if bits != 0 { Self.release(bits) }
        state.withLock { if $0.box != 0 { Self.release($0.box) } }
    }

    private static func retained(_ box: AnyObject) -> UInt {
        UInt(bitPattern: Unmanaged.passRetained(box).toOpaque())
    }

    private static func release(_ bits: UInt) {
        Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).release()
    }

    private static func object(_ bits: UInt) -> AnyObject {
        Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).takeUnretainedValue()
    }

    /// The instance's box, if one is built and (for a weak slot) still alive.
    package func current(_ registration: Registration) -> AnyObject? {
        if lockFreeReads {
            let bits = published.load(ordering: .acquiring)
            return bits == 0 ? nil : Self.object(bits)
        }
        let bits = state.withLock { Self.currentRetained(in: &$0, retention: retention, registration: registration) }
        return bits == 0 ? nil : Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)
            .takeRetainedValue()
    }

    /// The current box, retained once more for the caller (so it survives a reset right after the lock).
    private static func currentRetained(in state: inout State, retention: Retention, registration: Registration)
        -> UInt
    {
        switch retention {
        case .strong:
            if state.box != 0 { _ = Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: state.box)!).retain() }
            return state.box
        case .weak:
            guard let object = state.object?.object, let box = registration.erased.rebox(object) else { return 0 }
            return retained(box)
        }
    }

    /// Empties a resettable slot and returns the box it held. `.singleton` slots are never reset.
    package func reset() -> AnyObject? {
        guard !lockFreeReads else { return nil }
        let bits = state.withLock { state in
            defer { state.box = 0; state.object = nil }
            return state.box
        }
        return bits == 0 ? nil : Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)
            .takeRetainedValue()
    }

    private func store(_ bits: UInt, for registration: Registration, in state: inout State) {
        let box = Self.object(bits)
        switch retention {
        case .strong:
            if state.box != 0 { Self.release(state.box) }
            state.box = Self.retained(box)
            if lockFreeReads { published.store(Self.retained(box), ordering: .releasing) }
        case .weak:
            state.object = registration.erased.object(box).map(WeakObject.init)
        }
    }

    /// Whether the resolution with token `owner` is building this slot's instance right now.
    func isBeingBuilt(by owner: Int) -> Bool {
        state.withLock { $0.builder == owner }
    }

    /// The instance, building it with `build` if the slot is empty. `built` tells whether this call built it.
    package func instance(
        of registration: Registration,
        resolution: ResolutionScope,
        build: () throws -> AnyObject
    ) throws -> (box: AnyObject, built: Bool) {
        while true {
            if let box = current(registration) { return (box, false) }
            let outcome = try gate.withLockIfAvailable { _ throws -> (box: AnyObject, built: Bool) in
                if let box = current(registration) { return (box, false) }
                let tokens = resolution.tokens
                state.withLock { $0.builder = tokens[0] }
                defer { state.withLock { $0.builder = nil } }
                let box = try build()
                let bits = UInt(bitPattern: Unmanaged.passUnretained(box).toOpaque())
                state.withLock { store(bits, for: registration, in: &$0) }
                return (box, true)
            }
            if let outcome { return outcome }
            guard let owner = state.withLock({ $0.builder }) else {
                sched_yield()
                continue
            }
            try BuildWaits.shared.wait(resolution, for: owner, building: registration, in: self) {
                gate.withLock { _ in }
            }
        }
    }

    /// The instance, building it with the `async` `build` if the slot is empty; waiting askers suspend.
    package func instance(
        of registration: Registration,
        resolution: ResolutionScope,
        build: () async throws -> AnyObject
    ) async throws -> (box: AnyObject, built: Bool) {
        let token = resolution.tokens[0]
        while true {
            enum Claim: Sendable {
                case ready(UInt)
                case build
                case wait(owner: Int)
            }
            let claim = state.withLock { state -> Claim in
                let bits = Self.currentRetained(in: &state, retention: retention, registration: registration)
                if bits != 0 { return .ready(bits) }
                if let owner = state.builder { return .wait(owner: owner) }
                state.builder = token
                return .build
            }
            switch claim {
            case .ready(let bits):
                return (Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).takeRetainedValue(), false)
            case .build:
                let result: Result<AnyObject, any Error>
                do { result = .success(try await build()) } catch { result = .failure(error) }
                let bits: UInt
                if case .success(let box) = result {
                    bits = UInt(bitPattern: Unmanaged.passUnretained(box).toOpaque())
                } else {
                    bits = 0
                }
                let waiters = state.withLock { state in
                    if bits != 0 { store(bits, for: registration, in: &state) }
                    state.builder = nil
                    defer { state.waiters.removeAll() }
                    return state.waiters
                }
                for waiter in waiters { waiter.resume() }
                return (try result.get(), true)
            case .wait(let owner):
                let waitForBuilder = { [self] in
                    await withCheckedContinuation { continuation in
                        let finished = state.withLock { state in
                            guard state.builder == owner else { return true }
                            state.waiters.append(continuation)
                            return false
                        }
                        if finished { continuation.resume() }
                    }
                }
                if owner == token {
                    // A sibling task of the same factory (`async let`, a task group) is building it. A build
                    // runs in a node of its own, so a request from inside it never has the requester's token:
                    // the sibling waits for a build it is not part of, which cannot be a cycle.
                    await waitForBuilder()
                } else {
                    try await BuildWaits.shared.wait(resolution, for: owner, building: registration, in: self) {
                        await waitForBuilder()
                    }
                }
            }
        }
    }
}

/// A weak reference to the instance of a `.weak` slot.
/// Lives only inside the slot's mutex-protected state, so it needs no `Sendable` conformance.
private final class WeakObject {
    weak var object: AnyObject?

    init(_ object: AnyObject) { self.object = object }
}
