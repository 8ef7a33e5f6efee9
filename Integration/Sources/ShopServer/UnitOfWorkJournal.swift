import Synchronization

/// Counts how the units of work ended: the server's `/health` reports it, and the tests check that every
/// request's unit was disposed exactly once.
///
/// ```swift
/// let journal = try app.resolve(UnitOfWorkJournal.self)
/// journal.counts        // Counts(opened: 12, committed: 10, rolledBack: 2, disposedAgain: 0)
/// ```
public final class UnitOfWorkJournal: Sendable {
    /// How many units were opened, committed, rolled back, and disposed more than once.
    public struct Counts: Sendable, Hashable, Codable {
        /// Units created.
        public var opened = 0
        /// Units that committed.
        public var committed = 0
        /// Units that rolled back.
        public var rolledBack = 0
        /// Disposals after a unit's first: always 0 unless something disposes twice.
        public var disposedAgain = 0
        /// Units created and not yet disposed.
        public var open: Int { opened - committed - rolledBack }
    }

    private let state: Mutex<(counts: Counts, finished: [String: Int])>
    private let keepsIDs: Bool

    /// Creates an empty journal.
    ///
    /// - Parameter keepsIDs: Also remember how often each request's unit was disposed (for tests); off for
    ///   a server, whose memory must not grow with the requests it served.
    public init(keepsIDs: Bool = false) {
        self.keepsIDs = keepsIDs
        self.state = Mutex((Counts(), [:]))
    }

    /// The counts so far.
    public var counts: Counts { state.withLock { $0.counts } }

    /// How often the unit of each request was disposed, when the journal keeps IDs.
    public var disposalsByRequest: [String: Int] { state.withLock { $0.finished } }

    func opened() {
        state.withLock { $0.counts.opened += 1 }
    }

    func finished(_ requestID: String, committed: Bool) {
        state.withLock { state in
            if committed { state.counts.committed += 1 } else { state.counts.rolledBack += 1 }
            if keepsIDs { state.finished[requestID, default: 0] += 1 }
        }
    }

    func disposedAgain(_ requestID: String) {
        state.withLock { state in
            state.counts.disposedAgain += 1
            if keepsIDs { state.finished[requestID, default: 0] += 1 }
        }
    }
}
