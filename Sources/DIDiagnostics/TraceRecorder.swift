import DICore

/// Collects tap events for a trace.
final class TraceRecorder: ResolutionTap {
    private let containers: Set<ObjectIdentifier>
    private let origin = ContinuousClock.now
    private let events = Lock<[(start: ContinuousClock.Instant, event: ResolutionTrace.Event)]>([])

    init(containers: [Container]) {
        self.containers = Set(containers.map(ObjectIdentifier.init))
    }

    func record(_ tap: ResolutionTapEvent) {
        guard containers.contains(ObjectIdentifier(tap.asked)) else { return }
        let event = ResolutionTrace.Event(
            depth: tap.depth,
            service: tap.registration.displayName,
            scope: tap.registration.lifetimeName,
            built: tap.built,
            container: tap.asked.name,
            // A test container's view of a level of its base: the registration is the level's.
            registeredIn: (tap.owner.viewedLevel ?? tap.owner).name,
            startNanoseconds: Self.nanoseconds(tap.start - origin),
            durationNanoseconds: Self.nanoseconds(tap.duration),
            failure: tap.error.map { "\($0)" }
        )
        events.withLock { $0.append((tap.start, event)) }
    }

    var trace: ResolutionTrace {
        let sorted = events.withLock { $0 }.enumerated().sorted { a, b in
            if a.element.start != b.element.start { return a.element.start < b.element.start }
            if a.element.event.depth != b.element.event.depth { return a.element.event.depth < b.element.event.depth }
            return a.offset < b.offset
        }
        return ResolutionTrace(events: sorted.map(\.element.event))
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return max(0, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
