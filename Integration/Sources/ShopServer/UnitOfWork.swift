import DICore
import Synchronization

/// The changes one request makes, applied together when the request succeeds and dropped when it fails.
///
/// Registered in the app with `.matching("request")`, so each request container builds its own and disposes
/// it when the request is done:
///
/// ```swift
/// try app.autoregister(UnitOfWork.self, scope: .matching("request"), initializer: UnitOfWork.init)
///
/// let work = try Container.current.resolve(UnitOfWork.self)
/// work.enlist { cart.add(item) }      // applied at commit
/// work.complete()                      // the handler succeeded: commit when the request is done
/// ```
///
/// `dispose()` commits when the handler called ``complete()`` and rolls back otherwise, so a handler that
/// throws (or never gets to `complete()`) leaves nothing behind. Both are recorded in the
/// ``UnitOfWorkJournal``.
public final class UnitOfWork: Disposable, Sendable {
    /// The ID of the request the unit belongs to.
    public let requestID: String
    private let journal: UnitOfWorkJournal
    private let state = Mutex(State())

    private struct State {
        var changes: [@Sendable () -> Void] = []
        var isComplete = false
        var disposals = 0
    }

    /// Creates the unit of work of one request.
    ///
    /// ```swift
    /// let work = UnitOfWork(request: RequestInfo(id: "1", method: "POST", path: "/checkout"), journal: journal)
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request it belongs to.
    ///   - journal: Where it records how it ended.
    public init(request: RequestInfo, journal: UnitOfWorkJournal) {
        self.requestID = request.id
        self.journal = journal
        journal.opened()
    }

    /// Adds a change, applied in order at commit and dropped at rollback.
    ///
    /// - Parameter change: The change.
    public func enlist(_ change: @escaping @Sendable () -> Void) {
        state.withLock { $0.changes.append(change) }
    }

    /// Marks the request successful: the unit commits when it is disposed.
    public func complete() {
        state.withLock { $0.isComplete = true }
    }

    /// Commits the changes when ``complete()`` was called, rolls them back otherwise, and records which.
    ///
    /// A second call records a repeated disposal in the journal and changes nothing.
    public func dispose() {
        let (changes, isComplete, disposals) = state.withLock { state in
            state.disposals += 1
            defer { state.changes = [] }
            return (state.changes, state.isComplete, state.disposals)
        }
        guard disposals == 1 else {
            journal.disposedAgain(requestID)
            return
        }
        if isComplete {
            for change in changes { change() }
        }
        journal.finished(requestID, committed: isComplete)
    }
}
