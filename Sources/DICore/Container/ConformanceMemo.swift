/// How many answers a snapshot scans one by one before it indexes them.
private let scanLimit = 16

/// The answer of a conformance test about a value (a small code: `0`/`1` for a yes-or-no test), remembered per
/// dynamic type. Not generic over the answer: a generic class's memo, called from another module, would look
/// its metadata up at run time on every call, which costs more than the casts it saves.
///
/// Closing a container asks of every instance it releases whether it is `Disposable` (and, in DIScopes,
/// `AsyncDisposable`: one memo answers both, with how to dispose of it). A conditional cast of `Any` to a
/// protocol asks the runtime every time, through its conformance cache: about a thousand instructions, ten
/// times what a request's container spends on most of its other steps. The answer depends on the type alone,
/// so it is asked once per type and then read here.
///
/// ```swift
/// static let disposables = ConformanceMemo(passing: { $0 is any Disposable })
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
        let types: [ObjectIdentifier]
        let answers: [UInt8]
        let index: [ObjectIdentifier: UInt8]?

        init(types: [ObjectIdentifier], answers: [UInt8]) {
            self.types = types
            self.answers = answers
            index = types.count > scanLimit ? Dictionary(uniqueKeysWithValues: zip(types, answers)) : nil
        }

        func answer(for type: ObjectIdentifier) -> UInt8? {
            if let index { return index[type] }
            for position in types.indices where types[position] == type { return answers[position] }
            return nil
        }

        func adding(_ type: ObjectIdentifier, _ answer: UInt8) -> Answers {
            Answers(types: types + [type], answers: answers + [answer])
        }
    }

    private let test: @Sendable (Any) -> UInt8
    /// The current snapshot; replaced ones are never freed (see above), so a reader may use it unretained.
    private let answers = Unsafe.AtomicReference<Answers>()
    /// Serializes additions; keeps every replaced snapshot alive.
    private let replaced = Lock<[Answers]>([])

    /// A memo of `test`, which must answer the same for every value of one dynamic type.
    package init(_ test: @escaping @Sendable (Any) -> UInt8) {
        self.test = test
        answers.exchange(Answers(types: [], answers: []))
    }

    /// A memo of a yes-or-no `test` (answers `1` and `0`), read with `passes(_:)`.
    package convenience init(passing test: @escaping @Sendable (Any) -> Bool) {
        self.init { test($0) ? 1 : 0 }
    }

    /// Whether `value` passes the yes-or-no test of `init(passing:)`.
    package func passes(_ value: Any) -> Bool {
        answer(for: value) != 0
    }

    /// The test's answer for `value`: asked of the first value of its dynamic type, then remembered.
    package func answer(for value: Any) -> UInt8 {
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
