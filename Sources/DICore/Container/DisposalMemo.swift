/// How many types a snapshot scans one by one before it indexes them.
private let scanLimit = 16

/// How a container disposes of the instances of each dynamic type: worked out from the first instance of a
/// type that it releases, then remembered.
///
/// Closing a container asks of every instance it releases whether it is `Disposable` (and, in DIScopes,
/// `AsyncDisposable`). A conditional cast of `Any` to a protocol asks the runtime every time, through its
/// conformance cache: about a thousand instructions, ten times what a request's container spends on most of
/// its other steps. The answer depends on the type alone, so the memo asks once per type and keeps what the
/// cast found, the type as a `Disposable` (`any Disposable.Type`, a metatype: no reference count): disposing
/// of a later instance opens that metatype, casts the instance to the concrete type (a quarter of the cost: no
/// conformance lookup) and calls its `dispose()`.
///
/// ```swift
/// static let disposals = DisposalMemo<(any Disposable.Type)?> { value in
///     (value as? any Disposable).map { type(of: $0) }
/// }
/// if let type = disposals.disposal(of: value) { … }
/// ```
///
/// Reading takes no lock and no reference count: every thread of a server closes request containers, and
/// one lock (or one shared object's count) for all of them was a point every thread met on every released
/// instance. The disposals are an immutable snapshot published through an atomic reference; a type not yet
/// known is added under a lock, to a copy that replaces the snapshot. A replaced snapshot is kept (a reader
/// may still be looking into it), one per type ever seen: a few dozen small snapshots for a whole process.
package final class DisposalMemo<Disposal: Sendable>: Sendable {
    /// The disposals known at one moment: the types in the order they were first seen, scanned one by one
    /// while they are few (a server disposes a handful of types; comparing a few words costs less than
    /// hashing one), and indexed past that.
    @usableFromInline
    final class Snapshot: Sendable {
        @usableFromInline let types: [ObjectIdentifier]
        @usableFromInline let disposals: [Disposal]
        /// Whether the disposal of each type holds for all its values; `false` for a type whose values are
        /// inspected one by one (see `Wrapper`).
        @usableFromInline let holds: [Bool]
        @usableFromInline let index: [ObjectIdentifier: Int]?

        init(types: [ObjectIdentifier], disposals: [Disposal], holds: [Bool]) {
            self.types = types
            self.disposals = disposals
            self.holds = holds
            index = types.count > scanLimit ? Dictionary(uniqueKeysWithValues: zip(types, types.indices)) : nil
        }

        @inlinable
        func position(of type: ObjectIdentifier) -> Int? {
            if let index { return index[type] }
            for position in types.indices where types[position] == type { return position }
            return nil
        }

        func adding(_ type: ObjectIdentifier, _ disposal: Disposal, holds: Bool) -> Snapshot {
            Snapshot(types: types + [type], disposals: disposals + [disposal], holds: self.holds + [holds])
        }
    }

    @usableFromInline let inspect: @Sendable (Any) -> Disposal
    /// The current snapshot; replaced ones are never freed (see above), so a reader may use it unretained.
    @usableFromInline let snapshot = Unsafe.AtomicReference<Snapshot>()
    /// Serializes additions; keeps every replaced snapshot alive.
    private let replaced = Lock<[Snapshot]>([])

    /// A memo of how `inspect` says the values of each type are disposed of; it must answer the same for
    /// every value of one dynamic type (the memo itself asks again for each optional and `AnyHashable`).
    package init(_ inspect: @escaping @Sendable (Any) -> Disposal) {
        self.inspect = inspect
        snapshot.exchange(Snapshot(types: [], disposals: [], holds: []))
    }

    /// The disposal of `value`'s type; the type is inspected and added when it is new.
    ///
    /// Inlined, so that it is specialized for the caller's `Disposal`: generic code run unspecialized asks the
    /// runtime for the metadata of the types it names (the snapshot's, an optional's) on every call.
    @inlinable
    package func disposal(of value: Any) -> Disposal {
        let type = ObjectIdentifier(Swift.type(of: value))
        if let current = snapshot.load(), let position = current.with({ $0.position(of: type) }) {
            return current.with { $0.holds[position] ? $0.disposals[position] : inspect(value) }
        }
        return added(value)
    }

    /// The disposal of `value`'s type, inspected, and added when it holds for the type.
    @usableFromInline
    func added(_ value: Any) -> Disposal {
        let dynamicType = Swift.type(of: value)
        let type = ObjectIdentifier(dynamicType)
        let disposal = inspect(value)
        // An optional is disposed of by what it holds (a cast to a protocol looks inside it), so the first value
        // of its type, `nil` or not, tells nothing about the next; so does an `AnyHashable`'s.
        let holds = !(dynamicType is any Wrapper.Type)
        replaced.withLock { replaced in
            guard let current = snapshot.load()?.object, current.position(of: type) == nil else { return }
            if let old = snapshot.exchange(current.adding(type, disposal, holds: holds)) { replaced.append(old) }
        }
        return disposal
    }
}

/// A type whose values a cast to a protocol looks inside: whether one is `Disposable` depends on the value.
private protocol Wrapper {}
extension Optional: Wrapper {}
extension AnyHashable: Wrapper {}
