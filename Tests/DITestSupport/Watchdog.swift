#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import DICore
import Foundation
import Synchronization

/// Helpers shared by the test targets that turn a hang into a failed test: work runs on its own threads or tasks, and the test waits
/// for it only up to a deadline. Work that hangs is abandoned (its threads stay blocked), and the caller
/// records the hang as a failure instead of blocking the whole test run until `.timeLimit` ends it.

/// Releases a group of threads at the same moment, so that they really race.
package final class StartLine: Sendable {
    private let arrived = Atomic<Int>(0)
    private let count: Int

    package init(_ count: Int) { self.count = count }

    /// Arrives and spins (yielding the core) until every thread of the group has arrived.
    package func arriveAndWait() {
        arrived.add(1, ordering: .acquiringAndReleasing)
        while arrived.load(ordering: .acquiring) < count { sched_yield() }
    }
}

/// A continuation resumed by whichever of two racers gets there first; the other's resume is dropped.
package final class FirstResume<Value: Sendable>: Sendable {
    private let continuation = Lock<CheckedContinuation<Value, Never>?>(nil)

    package func install(_ newValue: CheckedContinuation<Value, Never>) { continuation.withLock { $0 = newValue } }

    package func resume(_ value: Value) {
        let taken = continuation.withLock { stored -> CheckedContinuation<Value, Never>? in
            defer { stored = nil }
            return stored
        }
        taken?.resume(returning: value)
    }
}

/// Runs `operation` in a new task and waits at most `timeout` for it: `nil` means it did not finish.
package func finishing<Value: Sendable>(
    within timeout: Duration,
    _ operation: @escaping @Sendable () async -> Value
) async -> Value? {
    let first = FirstResume<Value?>()
    let timer = Lock<Task<Void, Never>?>(nil)
    let result = await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
        first.install(continuation)
        Task { first.resume(await operation()) }
        let sleeper = Task {
            try? await Task.sleep(for: timeout)
            first.resume(nil)
        }
        timer.withLock { $0 = sleeper }
    }
    timer.withLock { $0?.cancel() }
    return result
}

extension DispatchSemaphore {
    /// Waits for the semaphore on a thread of its own, so that the waiting task leaves its thread to others (a
    /// test on the cooperative pool's two threads would otherwise block one of them).
    package func waitOffThePool() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                self.wait()
                done.resume()
            }
        }
    }
}

/// Runs `body(index)` on `count` new threads released together; the results in index order, or `nil`
/// when they had not all returned after `timeout` (a deadlock).
package func raceOnThreads<Value: Sendable>(
    _ count: Int,
    within timeout: Duration = .seconds(20),
    _ body: @escaping @Sendable (Int) -> Value
) async -> [Value]? {
    await finishing(within: timeout) {
        await withCheckedContinuation { (continuation: CheckedContinuation<[Value], Never>) in
            let results = Lock<[Value?]>(Array(repeating: nil, count: count))
            let remaining = Lock<Int>(count)
            let start = StartLine(count)
            for index in 0..<count {
                let thread = Thread {
                    start.arriveAndWait()
                    let value = body(index)
                    results.withLock { $0[index] = value }
                    let last = remaining.withLock { remaining -> Bool in
                        remaining -= 1
                        return remaining == 0
                    }
                    if last { continuation.resume(returning: results.withLock { $0.map { $0! } }) }
                }
                thread.stackSize = 4 << 20
                thread.start()
            }
        }
    }
}

/// Registers a service again and again on one thread (`register`, 300 times) while `threads` other threads
/// each make a container, resolve the service from it and close it (`use`, 200 times): whether every call of
/// each thread succeeded, the registering thread's last; `nil` when they hung.
package func registerAgain(
    _ register: @escaping @Sendable () throws -> Void,
    whileThreads threads: Int,
    use: @escaping @Sendable () -> Bool
) async -> [Bool]? {
    await raceOnThreads(threads + 1, within: .seconds(45)) { thread in
        if thread == threads { return (0..<300).allSatisfy { _ in (try? register()) != nil } }
        return (0..<200).allSatisfy { _ in use() }
    }
}

/// How one resolve of a stress or cycle test ended, comparable across threads.
package enum Outcome: Sendable, Hashable, CustomStringConvertible {
    case instance(ObjectIdentifier)
    case failed(ResolutionError.Code)
    case other(String)

    package init(_ body: () throws -> AnyObject) {
        do { self = .instance(ObjectIdentifier(try body())) } catch let error as ResolutionError {
            self = .failed(error.code)
        } catch {
            self = .other("\(error)")
        }
    }

    package init(_ body: () async throws -> AnyObject) async {
        do { self = .instance(ObjectIdentifier(try await body())) } catch let error as ResolutionError {
            self = .failed(error.code)
        } catch {
            self = .other("\(error)")
        }
    }

    package var description: String {
        switch self {
        case .instance: "an instance"
        case .failed(let code): "\(code)"
        case .other(let text): text
        }
    }
}
