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
///
/// Reading takes no lock: every thread of a server closes request containers, and one lock for all of them
/// was a point every thread met on every released instance. The answers are an immutable snapshot published
/// through an atomic reference; an answer not yet known is added under a lock, to a copy that replaces the
/// snapshot. A replaced snapshot is kept (a reader may still be looking into it), one per type ever asked
/// about: a few dozen small snapshots for a whole process.
package final class ConformanceMemo: Sendable {
    /// The answers known at one moment: the types in the order they were first asked about, scanned one by
    /// one while they are few (a server disposes a handful of types; comparing a few words costs less than
    /// hashing one), and indexed past that.
    private final class Answers: Sendable {
        static let scanLimit = 16
        let types: [ObjectIdentifier]
        let passes: [Bool]
        let index: [ObjectIdentifier: Bool]?

        init(types: [ObjectIdentifier], passes: [Bool]) {
            self.types = types
            self.passes = passes
            index = types.count > Self.scanLimit ? Dictionary(uniqueKeysWithValues: zip(types, passes)) : nil
        }

        func answer(for type: ObjectIdentifier) -> Bool? {
            if let index { return index[type] }
            for position in types.indices where types[position] == type { return passes[position] }
            return nil
        }

        func adding(_ type: ObjectIdentifier, _ passes: Bool) -> Answers {
            Answers(types: types + [type], passes: self.passes + [passes])
        }
    }

    private let test: @Sendable (Any) -> Bool
    /// The current snapshot; replaced ones are never freed (see above), so a reader may use it unretained.
    private let answers = Unsafe.AtomicReference<Answers>()
    /// Serializes additions; keeps every replaced snapshot alive.
    private let replaced = Lock<[Answers]>([])

    /// A memo of `test`, which must answer the same for every value of one dynamic type.
    package init(_ test: @escaping @Sendable (Any) -> Bool) {
        self.test = test
        answers.exchange(Answers(types: [], passes: []))
    }

    /// Whether `value` passes the test: asked of the first value of its dynamic type, then remembered.
    package func passes(_ value: Any) -> Bool {
        let type = ObjectIdentifier(Swift.type(of: value))
        if let known = answers.load()?.with({ $0.answer(for: type) }) { return known }
        let answer = test(value)
        replaced.withLock { replaced in
            guard let current = answers.load()?.object, current.answer(for: type) == nil else { return }
            if let old = answers.exchange(current.adding(type, answer)) { replaced.append(old) }
        }
        return answer
    }
}
