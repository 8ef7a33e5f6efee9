/// Whether values of a type pass a conformance test, remembered per dynamic type.
///
/// Closing a container asks of every instance it releases whether it is `Disposable` (and, in DIScopes,
/// `AsyncDisposable`). A conditional cast of `Any` to a protocol asks the runtime every time, through its
/// conformance cache: about a thousand instructions, ten times what a request's container spends on most of its
/// other steps. The answer depends on the type alone, so it is asked once per type and then read here.
///
/// ```swift
/// static let disposables = ConformanceMemo { $0 is any Disposable }
/// if disposables.passes(value) { (value as! any Disposable).dispose() }
/// ```
package final class ConformanceMemo: Sendable {
    private let test: @Sendable (Any) -> Bool
    private let answers = Lock([ObjectIdentifier: Bool]())

    /// A memo of `test`, which must answer the same for every value of one dynamic type.
    package init(_ test: @escaping @Sendable (Any) -> Bool) {
        self.test = test
    }

    /// Whether `value` passes the test: asked of the first value of its dynamic type, then remembered.
    package func passes(_ value: Any) -> Bool {
        let type = ObjectIdentifier(Swift.type(of: value))
        if let known = answers.withLock({ $0[type] }) { return known }
        let answer = test(value)
        answers.withLock { $0[type] = answer }
        return answer
    }
}
