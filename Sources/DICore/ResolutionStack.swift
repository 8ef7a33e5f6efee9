#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The registrations being built right now on one thread, innermost last.
///
/// Synchronous resolution never suspends, so the active path can live in a thread-local stack: pushing a
/// frame costs no allocation, and a factory that resolves through a captured container (not its `Resolver`
/// argument) is still on the same stack, so cycles through it are caught too. The stack also holds the
/// `.graph` instances of the current top-level resolve.
@usableFromInline
final class ResolutionStack {
    struct Frame {
        unowned(unsafe) let registration: Registration
        unowned(unsafe) let container: Container
        let requested: Any.Type
    }

    /// Identifies this thread's builds in the waits-for graph.
    let token: Int
    var frames: [Frame] = []
    /// The async resolution this thread's synchronous builds are nested in, if any.
    var asyncOuter: AsyncResolution?
    /// `.graph` instances of the current top-level resolve, by registration.
    var graph: [ObjectIdentifier: InstanceSlot] = [:]

    /// Deeper than this, resolution stops with `depthLimitExceeded` instead of overflowing the stack.
    static let maximumDepth = 200

    private init() {
        token = ResolutionTokens.next()
        frames.reserveCapacity(16)
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { pointer in
            #if canImport(Darwin)
            Unmanaged<ResolutionStack>.fromOpaque(pointer).release()
            #else
            if let pointer { Unmanaged<ResolutionStack>.fromOpaque(pointer).release() }
            #endif
        }
        precondition(status == 0, "DIToolkit could not create its thread-local resolution key (\(status)).")
        return key
    }()

    /// This thread's stack, created on first use and released when the thread exits.
    static var current: ResolutionStack {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<ResolutionStack>.fromOpaque(pointer).takeUnretainedValue()
        }
        let stack = ResolutionStack()
        pthread_setspecific(key, Unmanaged.passRetained(stack).toOpaque())
        return stack
    }

    /// The container of the innermost build on this thread, `nil` when no factory is running here; reads
    /// without creating a stack or retaining it, because property wrappers ask on every injection.
    static var innermostContainer: Container? {
        guard let pointer = pthread_getspecific(key) else { return nil }
        return Unmanaged<ResolutionStack>.fromOpaque(pointer)._withUnsafeGuaranteedRef { stack in
            stack.frames.isEmpty ? nil : stack.frames[stack.frames.count - 1].container
        }
    }

    /// Enters the build of `registration` in `container`, or throws if that would close a cycle or go too deep.
    func push(_ registration: Registration, in container: Container, requested: Any.Type) throws {
        if frames.isEmpty {
            asyncOuter = AsyncResolution.currentIfActive
        }
        for frame in frames where frame.registration === registration && frame.container === container {
            throw ResolutionError.cycle(
                path: path + [PathElement(registration, requested: requested, in: container)]
            )
        }
        if let outer = asyncOuter, outer.contains(registration, in: container) {
            throw ResolutionError.cycle(
                path: path + [PathElement(registration, requested: requested, in: container)]
            )
        }
        if frames.count >= Self.maximumDepth {
            throw ResolutionError.tooDeep(
                path: path + [PathElement(registration, requested: requested, in: container)],
                limit: Self.maximumDepth
            )
        }
        frames.append(Frame(registration: registration, container: container, requested: requested))
    }

    /// Leaves the innermost build; at the top, forgets the `.graph` instances of this resolve.
    func pop() {
        frames.removeLast()
        if frames.isEmpty {
            asyncOuter = nil
            if !graph.isEmpty { graph.removeAll() }
        }
    }

    /// The active path from the top-level request, including an enclosing async resolution.
    var path: [PathElement] {
        (asyncOuter?.path ?? [])
            + frames.map { PathElement($0.registration, requested: $0.requested, in: $0.container) }
    }

    /// The tokens of every resolution this thread's builds are nested in (for the waits-for graph).
    var tokens: [Int] {
        [token] + (asyncOuter?.tokens ?? [])
    }
}

/// Unique ids for resolutions, used to find cycles between threads.
enum ResolutionTokens {
    private static let counter = Atomic<Int>(0)

    static func next() -> Int { counter.add(1, ordering: .relaxed).newValue }
}
