import DICore
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
        let memo = ConformanceMemo { value in
            asked.withLock { $0.append("\(type(of: value))") }
            return value is any Disposable
        }
        let values: [Any] = [Handle(), DisposableHandle(), Handle(), DisposableHandle() as Handle, 1, 2]
        #expect(values.map(memo.passes) == [false, true, false, true, false, false])
        #expect(asked.withLock { $0 } == ["Handle", "DisposableHandle", "Int"])
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
