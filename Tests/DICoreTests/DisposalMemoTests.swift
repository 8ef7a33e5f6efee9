import DICore
import Dispatch
import Testing

/// `DisposalMemo` works out how to dispose of each dynamic type once: a value's own class decides, not the
/// type it was registered or boxed as, and every later value of the type is disposed of the same way.
@Suite struct DisposalMemoTests {
    /// Not `Disposable`; its subclass is.
    class Handle: @unchecked Sendable {}

    final class DisposableHandle: Handle, Disposable, @unchecked Sendable {
        let disposals = Lock(0)
        func dispose() { disposals.withLock { $0 += 1 } }
    }

    /// The memo under test: disposes of `Disposable` values, and records which types it inspected.
    static func memo(recording inspected: Lock<[String: Int]>) -> DisposalMemo<(any Disposable.Type)?> {
        DisposalMemo { value in
            inspected.withLock { $0["\(type(of: value))", default: 0] += 1 }
            return (value as? any Disposable).map { type(of: $0) }
        }
    }

    @Test func inspectsOncePerDynamicTypeAndTellsSubclassesApart() {
        let inspected = Lock<[String: Int]>([:])
        let memo = Self.memo(recording: inspected)
        let handles = [DisposableHandle(), DisposableHandle(), DisposableHandle()]
        let values: [Any] = [Handle(), handles[0], Handle(), handles[1] as Handle, 1, 2, handles[2]]
        #expect(values.map { memo.disposal(of: $0) != nil } == [false, true, false, true, false, false, true])
        #expect(inspected.withLock { $0 } == ["Handle": 1, "DisposableHandle": 1, "Int": 1])
        for value in values { memo.dispose(value) }
        // Each handle once, whether it is the one the memo learnt from, one seen as its superclass, or later.
        #expect(handles.map { $0.disposals.withLock { $0 } } == [1, 1, 1])
        #expect(inspected.withLock { $0 } == ["Handle": 1, "DisposableHandle": 1, "Int": 1])
    }

    /// A hashable disposable value, for `AnyHashable`s around one.
    struct DisposableKey: Disposable, Hashable, Sendable {
        let id: Int
        let disposals = Lock(0)
        func dispose() { disposals.withLock { $0 += 1 } }
        static func == (lhs: Self, rhs: Self) -> Bool { lhs.id == rhs.id }
        func hash(into hasher: inout Hasher) { hasher.combine(id) }
    }

    /// An optional instance (a service registered as `T?`) or an `AnyHashable` is disposed of by what it holds,
    /// whichever value of its type comes first: `nil` before an instance or after it, a plain key before a
    /// disposable one or after it.
    @Test(arguments: [false, true])
    func optionalsAndAnyHashablesAreDisposedOfByWhatTheyHold(emptyFirst: Bool) {
        let memo = Self.memo(recording: Lock([:]))
        let handle = DisposableHandle()
        let key = DisposableKey(id: 2)
        let empty: [Any] = [DisposableHandle?.none as Any, AnyHashable(1)]
        let full: [Any] = [handle as DisposableHandle? as Any, AnyHashable(key)]
        for value in emptyFirst ? empty + full + empty : full + empty + full { memo.dispose(value) }
        #expect(handle.disposals.withLock { $0 } == (emptyFirst ? 1 : 2))
        #expect(key.disposals.withLock { $0 } == (emptyFirst ? 1 : 2))
    }

    /// The same through a container: a service registered as an optional is disposed of when it holds an
    /// instance, also after a close that released a `nil` of it.
    @Test func anOptionalServiceIsDisposedOfWhenItHoldsAnInstance() throws {
        let app = Container(name: "app")
        let handle = DisposableHandle()
        for instance in [nil, handle, nil] {
            let request = app.child(name: "request")
            try request.register(DisposableHandle?.self, scope: .singleton) { _ in instance }
            #expect(try request.resolve(DisposableHandle?.self) === instance)
            request.close()
        }
        #expect(handle.disposals.withLock { $0 } == 1)
    }

    /// Disposals are read without a lock and added by copying: threads meeting many new types at once each
    /// dispose of their values the right way, and no type added by one thread is lost to another's copy.
    @Test(.timeLimit(.minutes(1)), arguments: [2, 3, 16])
    func threadsAddingAnswersAtOnceLoseNone(threads: Int) {
        let values: [any Sendable] = [
            Handle(), DisposableHandle(), 1, "s", 1.5, [1], ["k": 1], Set([1]), (1, 2), Int8(1), UInt(1), Float(1),
            Character("c"), Substring("s"), [String](), UInt8(1), true, Int16(1), Int32(1),
        ]
        let inspected = Lock<[String: Int]>([:])
        let memo = Self.memo(recording: inspected)
        let expected = values.map { $0 is any Disposable }
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for round in 0..<50 {
                let order = (round + thread) % 2 == 0 ? Array(values.indices) : values.indices.reversed()
                for index in order {
                    #expect((memo.disposal(of: values[index]) != nil) == expected[index])
                    memo.dispose(values[index])
                }
            }
        }
        #expect((values[1] as! DisposableHandle).disposals.withLock { $0 } == threads * 50)
        // Each type is inspected at most once per thread that raced to it first, and once more is never
        // needed: after the race every disposal is remembered.
        let counted = inspected.withLock { $0 }
        for value in values { memo.dispose(value) }
        #expect(inspected.withLock { $0 } == counted, "a type's disposal was lost and worked out again")
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

extension DisposalMemo<(any Disposable.Type)?> {
    /// Disposes of `value` as a closing container does.
    func dispose(_ value: Any) {
        if let disposable = disposal(of: value) { Container.dispose(value, as: disposable) }
    }
}
