import DICore
import Foundation
import Synchronization

/// Runs blocking work on `count` threads released at the same moment, and waits at most `seconds` for all
/// of them; returns each thread's result, or `nil` for a thread still blocked when time ran out (a hang).
///
/// Threads, not tasks: the engine's synchronous waits block their thread, and the cooperative pool has
/// as many threads as cores, so tasks could not show a hang of more than two of them.
func onThreads<T: Sendable>(
    _ count: Int,
    within seconds: Double = 20,
    _ work: @escaping @Sendable (Int) -> T
) -> [T?] {
    let results = Lock<[T?]>(Array(repeating: nil, count: count))
    let start = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    for index in 0..<count {
        done.enter()
        let thread = Thread {
            start.wait()
            let result = work(index)
            results.withLock { $0[index] = result }
            done.leave()
        }
        thread.start()
    }
    for _ in 0..<count { start.signal() }
    _ = done.wait(timeout: .now() + seconds)
    return results.withLock { $0 }
}

/// Runs `operation` in a task and waits at most `seconds` for it: its result, or `nil` if it hung.
func finishing<T: Sendable>(
    within seconds: Double = 20,
    _ operation: @escaping @Sendable () async throws -> T
) async -> Result<T, any Error>? {
    let outcome = Lock<Result<T, any Error>?>(nil)
    let finished = DispatchSemaphore(value: 0)
    Task {
        let result: Result<T, any Error>
        do { result = .success(try await operation()) } catch { result = .failure(error) }
        outcome.withLock { $0 = result }
        finished.signal()
    }
    // Waits off the cooperative pool, so that the operation's tasks keep their threads.
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        Thread { _ = finished.wait(timeout: .now() + seconds); continuation.resume() }.start()
    }
    return outcome.withLock { $0 }
}
