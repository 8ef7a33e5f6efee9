import Synchronization

/// Holds the one instance of a registration in one place (a container, a resolve), built exactly once even
/// when many threads or tasks ask at the same moment.
///
/// The slot keeps only the instance. Who is building it, and who waits for that build, is the business of
/// `BuildCoordinator`, which the synchronous and the `async` path share: they differ only in how a waiter
/// sleeps (a thread blocks on a condition, a task suspends). No lock is held while a factory runs, so a
/// factory may register, resolve and create children freely, and a chain of any depth holds no lock.
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

    private struct State {
        /// `Unmanaged` bits of the box, retained by the state; `0` when empty. Bits, not a reference, so that
        /// the state stays `Sendable` without claiming anything about the service type.
        var box: UInt = 0
        /// The instance of a `.weak` slot.
        var object: WeakObject?
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
            guard let object = state.object?.object, let box = registration.body.rebox(object) else { return 0 }
            return retained(box)
        }
    }

    /// The published instance of a `lockFreeReads` slot, `nil` until built: one atomic load, no lock and
    /// no reference counting of the box (the published box lives as long as the slot). `Service` must be the type of
    /// the boxes the slot holds.
    @inlinable
    package func builtValue<Service>(as _: Service.Type) -> Service? {
        let bits = published.load(ordering: .acquiring)
        guard bits != 0 else { return nil }
        return Unmanaged<InstanceBox<Service>>.fromOpaque(UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped)
            ._withUnsafeGuaranteedRef { $0.value }
    }

    /// Calls `body` with the published instance of a `lockFreeReads` slot, borrowed: one atomic load and no
    /// reference counting of the box or the instance (the published box lives as long as the slot). Calls
    /// `body` with the result of `build` instead while nothing is published. `Service` must be the type of the
    /// boxes the slot holds.
    @inlinable
    package func withBuiltValue<Service, Result>(
        as _: Service.Type,
        orBuild build: () throws -> Service,
        _ body: (Service) throws -> Result
    ) throws -> Result {
        let bits = published.load(ordering: .acquiring)
        guard bits != 0 else { return try body(build()) }
        return try Unmanaged<InstanceBox<Service>>.fromOpaque(UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped)
            ._withUnsafeGuaranteedRef { try body($0.value) }
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

    /// Keeps `box`, the instance just built for `registration`.
    private func store(_ box: AnyObject, for registration: Registration) {
        // Passed in as bits: the box is this build's own, handed over to the state.
        let bits = UInt(bitPattern: Unmanaged.passUnretained(box).toOpaque())
        state.withLock { state in
            let box = Self.object(bits)
            switch retention {
            case .strong:
                if state.box != 0 { Self.release(state.box) }
                state.box = Self.retained(box)
                if lockFreeReads { published.store(Self.retained(box), ordering: .releasing) }
            case .weak:
                state.object = registration.body.object(box).map(WeakObject.init)
            }
        }
    }

    /// The instance, building it with `build` if the slot is empty. `built` tells whether this call built it.
    ///
    /// A registration that cannot build synchronously (an `async` factory) is never claimed here: `build`
    /// then throws `asyncResolutionRequired` at once, and a concurrent `async` build is left alone.
    package func instance(
        of registration: Registration,
        resolution: ResolutionScope,
        build: () throws -> AnyObject
    ) throws -> (box: AnyObject, built: Bool) {
        guard registration.body.buildsSynchronously else {
            return try current(registration).map { ($0, false) } ?? (try build(), false)
        }
        return try once(describedBy: registration, resolution: resolution, build: build)
    }

    /// The instance, building it with `build` exactly once if the slot is empty, whatever `registration`'s
    /// factory is: `registration` only names the build in cycle errors. What `Lazy` keeps its value in.
    package func once(
        describedBy registration: Registration,
        resolution: ResolutionScope,
        build: () throws -> AnyObject
    ) throws -> (box: AnyObject, built: Bool) {
        while true {
            if let box = current(registration) { return (box, false) }
            switch try BuildCoordinator.shared.claim(self, for: registration, resolution: resolution) {
            case .lookAgain:
                continue
            case .build:
                // Called directly rather than through `Result { … }`: each frame between two levels of a
                // deep chain costs stack on every level.
                let box: AnyObject
                do {
                    box = try build()
                } catch {
                    BuildCoordinator.shared.finish(self)
                    throw error
                }
                return (finishBuild(of: registration, box: box), true)
            case .queued:
                preconditionFailure("a synchronous claim waits inside the coordinator")
            }
        }
    }

    /// The instance, building it with the `async` `build` if the slot is empty; waiting askers suspend.
    package func instance(
        of registration: Registration,
        resolution: ResolutionScope,
        build: () async throws -> AnyObject
    ) async throws -> (box: AnyObject, built: Bool) {
        while true {
            if let box = current(registration) { return (box, false) }
            switch try BuildCoordinator.shared.claimOrQueue(self, for: registration, resolution: resolution) {
            case .lookAgain:
                continue
            case .build:
                let box: AnyObject
                do {
                    box = try await build()
                } catch {
                    BuildCoordinator.shared.finish(self)
                    throw error
                }
                return (finishBuild(of: registration, box: box), true)
            case .queued(let wait):
                await BuildCoordinator.shared.suspend(until: wait)
            }
        }
    }

    /// Stores a successful build, then lets the waiters look again and find it. (After a failed build the
    /// caller only finishes: the waiters find the slot empty, and one of them builds.)
    private func finishBuild(of registration: Registration, box: AnyObject) -> AnyObject {
        store(box, for: registration)
        BuildCoordinator.shared.finish(self)
        return box
    }
}

/// A weak reference to the instance of a `.weak` slot.
/// Lives only inside the slot's lock-protected state, so it needs no `Sendable` conformance.
private final class WeakObject {
    weak var object: AnyObject?

    init(_ object: AnyObject) { self.object = object }
}
