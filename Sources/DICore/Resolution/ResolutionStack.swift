#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization
import CDIThreadLocal

/// The registrations being built right now on one thread, innermost last.
///
/// Synchronous resolution never suspends, so the active path can live in a thread-local stack: entering a
/// build costs no allocation and no atomic operation, and a factory that resolves through a captured
/// container (not its `Resolver` argument) is still on the same stack, so cycles through it are caught too.
/// The stack also holds the `.graph` instances of the current top-level resolve.
///
/// The stack is only ever touched by its own thread, so its properties opt out of dynamic exclusivity
/// checks, which would otherwise cost more than the bookkeeping itself.
@usableFromInline
final class ResolutionStack {
    /// One build. Its registration and container are alive while it runs: the caller of `enter` holds
    /// both until the matching `leave`.
    struct Frame {
        let registrationReference: Unsafe.Unowned<Registration>
        let containerReference: Unsafe.Unowned<Container>
        let requested: Any.Type

        var registration: Registration { registrationReference.object }
        var container: Container { containerReference.object }

        func builds(_ registration: Registration, in container: Container) -> Bool {
            registrationReference.refers(to: registration) && containerReference.refers(to: container)
        }
    }

    /// Identifies this thread's builds in the waits-for graph.
    let token: Int
    @exclusivity(unchecked) private var frames: UnsafeMutablePointer<Frame>
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private(set) var depth = 0
    /// How many builds this thread entered, ever; a diagnostics tap compares it before and after a resolve
    /// to tell a built instance from a reused one.
    @exclusivity(unchecked) private(set) var builds = 0
    /// The async resolution this thread's synchronous builds are nested in, if any.
    @exclusivity(unchecked) var asyncOuter: AsyncResolution?
    /// How many builds deep this thread's part of the chain may go: `Container.resolutionDepthLimit`, less the
    /// levels of the async resolution it is nested in. Read when the outermost build starts.
    @exclusivity(unchecked) private var depthLimit = 0
    /// `.graph` instances of the current top-level resolve, by registration.
    @exclusivity(unchecked) var graph: [ObjectIdentifier: InstanceSlot] = [:]

    /// The lowest address this thread's stack may grow to, plus the room kept free for the factory
    /// that fails; `0` where the platform does not tell.
    private let stackFloor: UInt
    /// Where the stack was at the last checkpoint, and at which depth: how much stack the eight levels since
    /// took, which the next checkpoint keeps free for the eight levels after it.
    @exclusivity(unchecked) private var lastCheckpoint: (depth: Int, stack: UInt) = (0, 0)

    private init() {
        token = ResolutionTokens.next()
        capacity = 16
        frames = .allocate(capacity: capacity)
        stackFloor = Self.lowestUsableStackAddress()
    }

    deinit {
        frames.deinitialize(count: depth)
        frames.deallocate()
    }

    /// Owns each thread's stack: its destructor releases the stack when the thread exits. Reads go through
    /// the C thread-local slot instead, which costs one load.
    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { pointer in
            c_di_resolution_stack_set(nil)
            #if canImport(Darwin)
            Unsafe.Unowned<ResolutionStack>.releaseRetained(at: pointer)
            #else
            if let pointer { Unsafe.Unowned<ResolutionStack>.releaseRetained(at: pointer) }
            #endif
        }
        precondition(status == 0, "DIToolkit could not create its thread-local resolution key (\(status)).")
        return key
    }()

    /// This thread's stack, created on first use and released when the thread exits.
    static var current: ResolutionStack { currentUnretained.object }

    /// This thread's stack without a retain: the thread key holds it for the thread's life.
    static var currentUnretained: Unsafe.Unowned<ResolutionStack> {
        if let pointer = c_di_resolution_stack_get() {
            return Unsafe.Unowned(address: pointer)
        }
        return makeCurrent()
    }

    /// Creates this thread's stack on its first build: the key takes the reference, the slot points to it.
    @inline(never)
    private static func makeCurrent() -> Unsafe.Unowned<ResolutionStack> {
        let address = Unsafe.Unowned.retainedAddress(of: ResolutionStack())
        pthread_setspecific(threadKey, address)
        c_di_resolution_stack_set(address)
        return Unsafe.Unowned(address: address)
    }

    /// The container of the innermost build on this thread, `nil` when no factory is running here; reads
    /// without creating a stack or retaining either, because property wrappers ask on every injection; the
    /// frame's build keeps the container alive while it runs.
    static var innermostContainer: Unsafe.Unowned<Container>? {
        guard let pointer = c_di_resolution_stack_get() else { return nil }
        return Unsafe.Unowned<ResolutionStack>(address: pointer).with { stack in
            stack.depth == 0 ? nil : stack.frames[stack.depth - 1].containerReference
        }
    }

    /// Leaves the innermost build; at the top, forgets the `.graph` instances of this resolve.
    @usableFromInline
    func leave() {
        depth &-= 1
        (frames + depth).deinitialize(count: 1)
        if depth == 0 {
            if asyncOuter != nil { asyncOuter = nil }
            if !graph.isEmpty { graph.removeAll() }
        }
    }

    /// The error to throw for `error` raised inside the innermost build: a factory's own error becomes
    /// `factoryFailed` at this step; resolution errors pass through.
    @usableFromInline
    func failure(_ error: any Error) -> any Error {
        Container.wrap(error, path: path)
    }

    /// Puts the build of `registration` in `container` on top, after checking that it is not already on the
    /// path (a cycle) and that the path is not too deep; the failures are built out of line.
    @inline(__always)
    fileprivate func push(_ registration: Registration, in container: Container, requested: Any.Type) throws {
        let depth = self.depth
        if depth == 0 {
            // Where the first checkpoint measures its eight levels from.
            lastCheckpoint = (0, Self.stackPointer())
            depthLimit = c_di_depth_limit_get()
            if AsyncResolution.isAnyActive, let outer = AsyncResolution.current {
                try nest(in: outer, registration, in: container, requested: requested)
            }
        } else {
            if _slowPath(depth >= depthLimit) {
                try failTooDeep(registration, in: container, requested: requested, stackExhausted: false)
            }
            if _slowPath(depth & 7 == 0) {
                try checkpoint(registration, in: container, requested: requested)
            }
            var index = 0
            while index < depth {
                if _slowPath(frames[index].builds(registration, in: container)) {
                    try failCycle(registration, in: container, requested: requested)
                }
                index &+= 1
            }
            if let outer = asyncOuter, outer.contains(registration, in: container) {
                try failCycle(registration, in: container, requested: requested)
            }
        }
        (frames + depth).initialize(
            to: Frame(
                registrationReference: Unsafe.Unowned(registration),
                containerReference: Unsafe.Unowned(container),
                requested: requested
            )
        )
        self.depth = depth &+ 1
        builds &+= 1
    }

    /// The checks of the outermost push of a thread's builds nested in the async resolution `outer`: the chain's
    /// async levels count towards the depth limit, and a build already on the async path is a cycle. Only then is
    /// `outer` recorded: leaving the outermost frame clears it, and a refused build leaves no frame, so a thread
    /// never keeps the path (and the containers) of a resolution it no longer runs.
    @inline(never)
    private func nest(
        in outer: AsyncResolution, _ registration: Registration, in container: Container, requested: Any.Type
    ) throws {
        depthLimit -= outer.depth
        // The limit is at least 1, so only the async levels can reach it here.
        if depthLimit <= 0 {
            try failTooDeep(registration, in: container, requested: requested, stackExhausted: false)
        }
        if outer.contains(registration, in: container) {
            try failCycle(registration, in: container, requested: requested)
        }
        asyncOuter = outer
    }

    /// The checks a push makes every eighth level (8, 16, …): room on the thread's stack, and room for frames.
    ///
    /// The next checkpoint is eight levels away, so the stack must have room for eight more levels above the
    /// reserve: as much as the last eight took, measured from the checkpoint below (or the outermost build).
    /// (A level's frames are about 5 KB in a debug build, and nearly twice that with ThreadSanitizer, whose eight
    /// levels take more than the reserve; a factory's own frames count too.) The frame capacity is a multiple of
    /// eight, so the common push makes neither check.
    @inline(never)
    private func checkpoint(_ registration: Registration, in container: Container, requested: Any.Type) throws {
        let stack = Self.stackPointer()
        var floor = stackFloor
        if floor != 0, lastCheckpoint.depth == depth - 8, lastCheckpoint.stack > stack {
            floor += lastCheckpoint.stack - stack
        }
        lastCheckpoint = (depth, stack)
        if stack < floor {
            try failTooDeep(registration, in: container, requested: requested, stackExhausted: true)
        }
        if depth == capacity {
            let grown = UnsafeMutablePointer<Frame>.allocate(capacity: capacity * 2)
            grown.moveInitialize(from: frames, count: depth)
            frames.deallocate()
            frames = grown
            capacity *= 2
        }
    }

    // The failures throw from out of line, so that a push keeps a small frame.

    @inline(never)
    private func failTooDeep(
        _ registration: Registration, in container: Container, requested: Any.Type, stackExhausted: Bool
    ) throws(ResolutionError) -> Never {
        throw ResolutionError.tooDeep(
            path: path + [PathElement(registration, requested: requested, in: container)],
            limit: c_di_depth_limit_get(),
            stackExhausted: stackExhausted
        )
    }

    @inline(never)
    private func failCycle(_ registration: Registration, in container: Container, requested: Any.Type)
        throws(ResolutionError) -> Never
    {
        let asker = asker
        throw container.cycleError(
            registration, requested: requested, after: path,
            itself: asker?.registration === registration && asker?.container === container
        )
    }

    var innermost: (registration: Registration, container: Container)? {
        depth == 0 ? nil : (frames[depth - 1].registration, frames[depth - 1].container)
    }

    /// The build the next one is asked from: this thread's innermost, or else the async resolution the thread's
    /// builds are nested in.
    var asker: (registration: Registration, container: Container)? {
        innermost ?? enclosingAsync.map { ($0.registration, $0.container) }
    }

    /// Whether nothing is being built on this thread.
    var isEmpty: Bool { depth == 0 }

    /// Whether a resolve made now is a top-level request: nothing is being built on this thread, and the thread
    /// runs no `async` resolution's factory.
    var isOutermost: Bool { depth == 0 && enclosingAsync == nil }

    /// The async resolution this thread's builds are nested in: the one recorded when the outermost build
    /// started, or, before any build, the task's own.
    var enclosingAsync: AsyncResolution? {
        depth == 0 ? AsyncResolution.currentIfActive : asyncOuter
    }

    /// The active path followed by `step`: the path of an error raised for the next step. Outside any build
    /// (a failed top-level lookup) it is `step` alone, without joining arrays.
    func path(then step: PathElement) -> [PathElement] {
        if depth == 0 && enclosingAsync == nil { return [step] }
        return path + [step]
    }

    /// The active path from the top-level request, including an enclosing async resolution.
    var path: [PathElement] {
        (enclosingAsync?.path ?? [])
            + (0..<depth).map { frames[$0] }.map {
                PathElement($0.registration, requested: $0.requested, in: $0.container)
            }
    }

    /// Room left on the stack when a build is refused for lack of it: enough for the error's own path and
    /// message, and for the factories unwinding above it.
    private static let stackReserve: UInt = 64 * 1024

    /// Where this thread's stack is now.
    private static func stackPointer() -> UInt {
        UInt(c_di_stack_address())
    }

    /// The lowest address of this thread's stack plus `stackReserve`, asked of the system once per thread;
    /// `0` (no check) where the system does not tell.
    private static func lowestUsableStackAddress() -> UInt {
        let lowest = UInt(c_di_thread_stack_lowest_address())
        return lowest == 0 ? 0 : lowest + stackReserve
    }
}

extension Container {
    /// Enters the build of `registration`, with this container as its resolver, on this thread's resolution
    /// stack; pair with `leave()`.
    ///
    /// - Throws: `circularDependency` if the same registration is already being built in this container on
    ///   this path, `depthLimitExceeded` past `Container.resolutionDepthLimit`.
    ///
    /// The stack is returned unretained: the thread key holds it for the thread's life. (A method of the
    /// container, not a static one of the stack, so that a call from an inlined resolve passes no class
    /// metadata.)
    @usableFromInline
    func enterBuild(_ registration: Registration, requested: Any.Type) throws -> Unsafe.Unowned<ResolutionStack> {
        let stack = ResolutionStack.currentUnretained
        try stack.with { try $0.push(registration, in: self, requested: requested) }
        return stack
    }
}
