/// Who is building which shared instance right now, and who waits for whom: the one build-and-wait state
/// machine behind every `InstanceSlot`, shared by the synchronous and the `async` path.
///
/// A resolution that finds a slot empty *claims* it and runs the factory without holding any lock. Another
/// resolution that finds it being built *waits*: a thread sleeps on the coordinator's condition, a task
/// suspends on a continuation; that is the only difference between the two paths. When the build finishes
/// (or fails), every waiter looks at the slot again: it finds the instance, or one of them builds.
///
/// Before anybody waits, the coordinator follows the waits-for graph from the builder it would wait for.
/// Each resolution is known by a chain of tokens (its own and those of the builds it is nested in); a
/// waiter records its chain and the slot it waits for. If, following builders and the waiters whose chains
/// contain them, the graph comes back to the asker's own chain, the wait would never end, and the asker gets
/// `circularDependency` naming the loop instead. Claims, waits and finishes all happen under one lock, so
/// every recorded edge is current: a waiter's record is removed by the very `finish` that wakes it, and a
/// builder's record by its own `finish`. A cycle found is therefore a real one, and a wait not refused can
/// always end (the chain of waits it joins ends at a builder that is running).
///
/// The lock is taken only when a slot is empty (a first build, a `.graph` instance, a reset `.cached` one):
/// reading a built instance never comes here.
final class BuildCoordinator: Sendable {
    static let shared = BuildCoordinator()

    /// A build under way: the token of the resolution running the factory, and what it builds.
    private struct Build {
        let builder: Int
        let registration: Registration
    }

    /// A resolution waiting for the build of `slot`.
    private struct Wait {
        let chain: [Int]
        let slot: ObjectIdentifier
        /// Set when the waiter is a task that has suspended.
        var continuation: CheckedContinuation<Void, Never>?
    }

    private struct State {
        /// By slot.
        var builds: [ObjectIdentifier: Build] = [:]
        /// By wait id; an entry is removed by the `finish` that ends the wait.
        var waits: [Int: Wait] = [:]
        var nextWait = 0
    }

    private let state = Lock(State())

    /// What an asker does next.
    enum Claim: Sendable {
        /// The slot has an instance (built meanwhile): read it again.
        case lookAgain
        /// The caller builds, then calls `finish(_:)`.
        case build
        /// (`async` askers only) Suspend with `suspend(until:)`, then look again.
        case queued(Int)
    }

    /// Claims `slot` for a synchronous build, or, while another resolution builds it, sleeps until that
    /// build finishes; never returns `.queued`.
    ///
    /// - Throws: `circularDependency` when waiting would never end.
    func claim(_ slot: InstanceSlot, for registration: Registration, resolution: ResolutionScope) throws
        -> Claim
    {
        let id = ObjectIdentifier(slot)
        var queued: Int?
        return try state.withLockAwaiting({ state throws(ResolutionError) -> Claim? in
            if let wait = queued {
                // Still recorded: the build we wait for has not finished; sleep on.
                if state.waits[wait] != nil { return nil }
                queued = nil
            }
            switch try Self.step(&state, slot: slot, id: id, registration, resolution: resolution) {
            case .lookAgain: return .lookAgain
            case .build: return .build
            case .queued(let wait):
                queued = wait
                return nil
            }
        })
    }

    /// Claims `slot` for an `async` build, or records the asker as waiting for the build under way.
    ///
    /// - Throws: `circularDependency` when waiting would never end.
    func claimOrQueue(_ slot: InstanceSlot, for registration: Registration, resolution: ResolutionScope) throws
        -> Claim
    {
        try state.withLock { state throws(ResolutionError) -> Claim in
            try Self.step(&state, slot: slot, id: ObjectIdentifier(slot), registration, resolution: resolution)
        }
    }

    /// Suspends until the build that `wait` waits for has finished (at once if it already has).
    func suspend(until wait: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let finished = state.withLock { state -> Bool in
                guard state.waits[wait] != nil else { return true }
                state.waits[wait]!.continuation = continuation
                return false
            }
            if finished { continuation.resume() }
        }
    }

    /// Ends the build of `slot` (stored or failed) and wakes everybody waiting for it.
    func finish(_ slot: InstanceSlot) {
        let id = ObjectIdentifier(slot)
        let (continuations, sleepers) = state.withLock { state in
            state.builds[id] = nil
            var continuations: [CheckedContinuation<Void, Never>] = []
            var sleepers = false
            // Nobody waits for most builds; walking an empty dictionary still costs a few hundred
            // instructions of generic iteration.
            if state.waits.isEmpty { return (continuations, sleepers) }
            for (key, wait) in state.waits where wait.slot == id {
                state.waits[key] = nil
                if let continuation = wait.continuation { continuations.append(continuation) } else { sleepers = true }
            }
            return (continuations, sleepers)
        }
        // A task recorded but not yet suspended counts as a sleeper here; it finds its record gone instead.
        if sleepers { state.broadcast() }
        for continuation in continuations { continuation.resume() }
    }

    /// One look at `slot` under the lock: its instance, a claim, or a recorded wait.
    private static func step(
        _ state: inout State,
        slot: InstanceSlot,
        id: ObjectIdentifier,
        _ registration: Registration,
        resolution: ResolutionScope
    ) throws(ResolutionError) -> Claim {
        if slot.current(registration) != nil { return .lookAgain }
        // One hash for the common case, a slot nobody builds: claim it, and put back the build found otherwise.
        let claim = Build(builder: resolution.buildToken, registration: registration)
        guard let build = state.builds.updateValue(claim, forKey: id) else { return .build }
        state.builds[id] = build
        // Only a claim that finds a build under way needs the tokens of its resolution (an allocation).
        let chain = resolution.chain
        if let loop = loop(in: state, from: build, waitedForBy: chain) {
            throw cycle(loop, asked: registration, chain: chain, path: resolution.path)
        }
        state.nextWait += 1
        state.waits[state.nextWait] = Wait(chain: chain, slot: id, continuation: nil)
        return .queued(state.nextWait)
    }

    /// The builds that lead from `build` back to a resolution of `chain`, each with its builder; `nil` when
    /// waiting for `build` cannot deadlock.
    ///
    /// A builder is stuck if some resolution nested in it (a waiter whose chain contains the builder's
    /// token) waits for another build; follow those waits breadth first.
    private static func loop(in state: State, from build: Build, waitedForBy chain: [Int]) -> [Build]? {
        var trails: [(token: Int, trail: [Build])] = [(build.builder, [build])]
        var seen: Set<Int> = [build.builder]
        while !trails.isEmpty {
            var next: [(token: Int, trail: [Build])] = []
            for (token, trail) in trails {
                if chain.contains(token) { return trail }
                for wait in state.waits.values where wait.chain.contains(token) {
                    guard let blocking = state.builds[wait.slot], seen.insert(blocking.builder).inserted else {
                        continue
                    }
                    next.append((blocking.builder, trail + [blocking]))
                }
            }
            trails = next
        }
        return nil
    }

    /// The `circularDependency` error for a wait that would close `loop`.
    private static func cycle(_ loop: [Build], asked: Registration, chain: [Int], path: [PathElement])
        -> ResolutionError
    {
        let links = loop.map { build in
            let element = PathElement(build.registration, requested: build.registration.serviceType, in: nil,
                                      onAnotherThread: !chain.contains(build.builder))
            // A link this resolution builds itself is already on its path, with its container.
            let own = path.first { $0.location == element.location && $0.type == element.type }
            return element.onAnotherThread ? element : element.placed(in: own?.container)
        }
        return ResolutionError.cycle(path: path + links)
    }
}
