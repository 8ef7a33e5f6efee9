import DICore
import Dispatch
import Testing

/// `ConformanceMemo` answers per dynamic type: a value's own class decides, not the type it was registered or
/// boxed as, and a type is asked about once.
@Suite struct ConformanceMemoTests {
    /// Not `Disposable`; its subclass is.
    class Handle: @unchecked Sendable {}

    final class DisposableHandle: Handle, Disposable, @unchecked Sendable {
        let disposals = Lock(0)
        func dispose() { disposals.withLock { $0 += 1 } }
    }

    @Test func asksOncePerDynamicTypeAndTellsSubclassesApart() {
        let asked = Lock<[String]>([])
        let memo = ConformanceMemo(passing: { value in
            asked.withLock { $0.append("\(type(of: value))") }
            return value is any Disposable
        })
        let values: [Any] = [Handle(), DisposableHandle(), Handle(), DisposableHandle() as Handle, 1, 2]
        #expect(values.map(memo.passes) == [false, true, false, true, false, false])
        #expect(asked.withLock { $0 } == ["Handle", "DisposableHandle", "Int"])
    }

    /// Answers are read without a lock and added by copying: threads asking about many new types at once
    /// each get the right answer, and no answer added by one thread is lost to another's copy.
    @Test(.timeLimit(.minutes(1)), arguments: [2, 3, 16])
    func threadsAddingAnswersAtOnceLoseNone(threads: Int) {
        let values: [any Sendable] = [
            Handle(), DisposableHandle(), 1, "s", 1.5, [1], ["k": 1], Set([1]), (1, 2), Int8(1), UInt(1), Float(1),
            Character("c"), Substring("s"), [String](), Optional<Int>.none as any Sendable, true, Int16(1), Int32(1),
        ]
        let asked = Lock<[String: Int]>([:])
        let memo = ConformanceMemo(passing: { value in
            asked.withLock { $0["\(type(of: value))", default: 0] += 1 }
            return value is any Disposable
        })
        let expected = values.map { $0 is any Disposable }
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for round in 0..<50 {
                let order = (round + thread) % 2 == 0 ? Array(values.indices) : values.indices.reversed()
                for index in order { #expect(memo.passes(values[index]) == expected[index]) }
            }
        }
        // Each type is asked about at most once per thread that raced to it first, and once more is never
        // needed: after the race every answer is remembered.
        let counted = asked.withLock { $0 }
        for value in values { _ = memo.passes(value) }
        #expect(asked.withLock { $0 } == counted, "an answer was lost and asked again")
        #expect(counted.values.allSatisfy { $0 <= threads })
    }

    /// A container learns that `Handle` is not disposable from one close; a later `Handle` registration whose
    /// instance is a `DisposableHandle` is still disposed (and the other way round).
    @Test(arguments: [false, true])
    func disposalFollowsTheInstancesClassWhicheverCloseComesFirst(disposableFirst: Bool) throws {
        let app = Container(name: "app")
        var disposables: [DisposableHandle] = []
        for disposable in disposableFirst ? [true, false, true] : [false, true, false, true] {
            let request = app.child(name: "request")
            let instance = disposable ? DisposableHandle() : Handle()
            if let instance = instance as? DisposableHandle { disposables.append(instance) }
            try request.register(Handle.self, scope: .singleton) { _ in instance }
            #expect(try request.resolve(Handle.self) === instance)
            request.close()
        }
        #expect(disposables.map { $0.disposals.withLock { $0 } } == disposables.map { _ in 1 })
    }
}
