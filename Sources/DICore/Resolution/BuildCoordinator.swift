import Synchronization

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
/// `circularDependency` naming the loop instead. Waits are recorded and removed under one lock, and a
/// slot's builder is its own atomic word (`InstanceSlot.builder`), set by the claim and cleared by the
/// `finish`, so every edge followed is current: a waiter's record is removed by the very `finish` that wakes
/// it, and a slot whose builder has finished names nobody. A cycle found is therefore a real one, and a wait
/// not refused can always end (the chain of waits it joins ends at a builder that is running).
///
/// A claim nobody contends is one compare-and-swap on the slot and no lock: a server builds a handful of
/// request-scoped instances per request on every thread, and one lock for all of them was a point every
/// thread met. A finish takes the lock only when some wait is recorded. The two sides cannot miss each
/// other: a waiter counts its wait, then reads the builder; a finish clears the builder, then reads the
/// count (both sequentially consistent), so either the waiter sees the slot free and looks again, or the
/// finish sees the wait and wakes it.
///
/// Reading a built instance never comes here.
final class BuildCoordinator: Sendable {
    static let shared = BuildCoordinator()

    /// A build under way: the token of the resolution running the factory, and what it builds.
    private struct Build {
        let builder: Int
        let registration: Registration
    }

    /// A resolution waiting for the build of `slot`, which builds `registration`.
    private struct Wait {
        let chain: [Int]
        let slot: InstanceSlot
        let registration: Registration
        /// Set when the waiter is a task that has suspended.
        var continuation: CheckedContinuation<Void, Never>?
    }

    private struct State {
        /// By wait id; an entry is removed by the `finish` that ends the wait.
        var waits: [Int: Wait] = [:]
        var nextWait = 0
    }

    private let state = Lock(State(), awaitable: true)
    /// How many waits are recorded; a `finish` with none takes no lock.
    private let waitCount = Atomic<Int>(0)

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
        if let claim = claimUncontended(slot, for: registration, resolution: resolution) { return claim }
        var queued: Int?
        return try state.withLockAwaiting({ state throws(ResolutionError) -> Claim? in
            if let wait = queued {
                // Still recorded: the build we wait for has not finished; sleep on.
                if state.waits[wait] != nil { return nil }
                queued = nil
            }
            switch try step(&state, slot: slot, registration, resolution: resolution) {
            case .lookAgain: return .lookAgain
            case .build: return .build
            case .queued(let wait):
                queued = wait
                return nil
            }
        })
    }

    /// Claims `slot` for an `async` build, or records a wait for the build under way and returns `.queued`
    /// (the caller suspends with `suspend(until:)`).
    ///
    /// - Throws: `circularDependency` when waiting would never end.
    func claimOrQueue(_ slot: InstanceSlot, for registration: Registration, resolution: ResolutionScope) throws
        -> Claim
    {
        if let claim = claimUncontended(slot, for: registration, resolution: resolution) { return claim }
        return try state.withLock { state throws(ResolutionError) -> Claim in
            try step(&state, slot: slot, registration, resolution: resolution)
        }
    }

    /// Suspends until the wait `wait` ends (at once if it already has).
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

    /// Ends the build of `slot` (finished or failed) and wakes everybody waiting for it.
    func finish(_ slot: InstanceSlot) {
        slot.builder.store(0, ordering: .sequentiallyConsistent)
        guard waitCount.load(ordering: .sequentiallyConsistent) > 0 else { return }
        let (continuations, sleepers) = state.withLock { state in
            var continuations: [CheckedContinuation<Void, Never>] = []
            var sleepers = false
            for (key, wait) in state.waits where wait.slot === slot {
                state.waits[key] = nil
                waitCount.subtract(1, ordering: .sequentiallyConsistent)
                if let continuation = wait.continuation { continuations.append(continuation) } else { sleepers = true }
            }
            return (continuations, sleepers)
        }
        // A task recorded but not yet suspended counts as a sleeper here; it finds its record gone instead.
        if sleepers { state.broadcast() }
        for continuation in continuations { continuation.resume() }
    }

    /// The claim of a slot nobody builds, without the lock; `nil` when somebody does (the caller takes the
    /// lock to wait, or to find the cycle).
    private func claimUncontended(
        _ slot: InstanceSlot, for registration: Registration, resolution: ResolutionScope
    ) -> Claim? {
        guard slot.claim(for: resolution.buildToken) else { return nil }
        // Built by a claim that finished between the caller's read and this one: give the slot back.
        if slot.current(registration) != nil {
            finish(slot)
            return .lookAgain
        }
        return .build
    }

    /// One look at `slot` under the lock: its instance, a claim, or a recorded wait.
    private func step(
        _ state: inout State,
        slot: InstanceSlot,
        _ registration: Registration,
        resolution: ResolutionScope
    ) throws(ResolutionError) -> Claim {
        if slot.current(registration) != nil { return .lookAgain }
        if slot.claim(for: resolution.buildToken) {
            // Under the lock nobody has recorded a wait for this claim, so giving it back wakes nobody.
            guard slot.current(registration) == nil else {
                slot.builder.store(0, ordering: .sequentiallyConsistent)
                return .lookAgain
            }
            return .build
        }
        // Record the wait before reading the builder (see the type's comment), and take it back when the
        // build has finished meanwhile or waiting would never end.
        state.nextWait += 1
        let id = state.nextWait
        // Only a claim that finds a build under way needs the tokens of its resolution (an allocation).
        let chain = resolution.chain
        state.waits[id] = Wait(chain: chain, slot: slot, registration: registration, continuation: nil)
        waitCount.add(1, ordering: .sequentiallyConsistent)
        let builder = slot.builder.load(ordering: .sequentiallyConsistent)
        var loop: [Build]?
        if builder != 0 {
            loop = Self.loop(in: state, from: Build(builder: builder, registration: registration), waitedForBy: chain)
            if loop == nil { return .queued(id) }
        }
        state.waits[id] = nil
        waitCount.subtract(1, ordering: .sequentiallyConsistent)
        if let loop {
            // A build that asks for itself (a factory resolving its own key and finding itself).
            if loop.count == 1, let own = resolution.asker, own.registration === registration {
                throw own.container.cycleError(
                    registration, requested: registration.serviceType, after: resolution.path, itself: true
                )
            }
            throw Self.cycle(loop, asked: registration, chain: chain, path: resolution.path)
        }
        return .lookAgain
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
                    let builder = wait.slot.builder.load(ordering: .sequentiallyConsistent)
                    guard builder != 0, seen.insert(builder).inserted else { continue }
                    next.append((builder, trail + [Build(builder: builder, registration: wait.registration)]))
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
