import CDIThreadLocal
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Every unsafe reference DICore (and the modules built on it) handles: references used without reference
/// counting, atomic pointers that own an object, and the one claim of `Sendable` the compiler cannot check
/// for instance boxes. Nothing outside this file calls `Unmanaged` or turns an object into an integer, so
/// `grep -rn "Unmanaged\|bitPattern" Sources` lists this file and the few integer conversions that hash
/// identifiers.
///
/// ## Why it is sound
///
/// - **Unowned references** (`Unowned`) are taken only of objects that something else keeps alive for as long
///   as the reference is used: a container keeps its ancestors, a published registration table keeps its
///   registrations and is not freed while a read section can see it (`TableReclamation`), a thread's
///   resolution stack is kept by the thread's key until the thread exits, and a slot of a container's slot
///   store, which names that container to take its lock, is used only by code that holds the container (it
///   got the slot from the container's store, or it is the container closing or resetting). Each use states
///   which of these holds.
/// - **A container's list of its children** (`ChildList`) holds them unretained, each in one shard, which is
///   read only under the shard's lock; a child's `deinit` takes that lock to leave the list before its memory
///   can be freed: every listed address is allocated memory while the lock is held. The list of roots
///   (`RootList`) holds them the same way, under its one lock.
///   `Unowned.retainedUnlessDeinitialising()` retains the child and then asks whether its deinitialisation had
///   begun; if so it releases at once, still under the lock, so the retain never outlives the `deinit` (the
///   runtime allows a balanced retain of an object in `deinit`).
///   A weak list would do the same work with a side table per child, which slows every later retain and
///   release of that child.
/// - **Atomic references** (`AtomicReference`) own one retain of the object they point to, taken when it is
///   stored and given back when it is replaced or the reference is destroyed — except an object stored as
///   permanent, which the reference neither retains nor releases: only objects a `static let` keeps for the
///   life of the process (the shared empty and closed registration tables). A reader that loads one without
///   retaining it relies on the writer's rules, which each use states: a container's parent is stored when
///   the container is made and taken out only by its `deinit`, when nothing can read it; a once-published
///   instance is never replaced for the life of its slot (nor, once a registration republishes it, for the
///   registration's life); a replaced registration table is retired, not freed, until no read section can see
///   it; a replaced `DisposalMemo` snapshot is never freed; a lock-protected reference is read under that lock;
///   a container's list of children keeps every copy of its shards it replaced until the container is freed. A
///   container's kept cells (`KeptCells`) are read both ways: a cell's slot is stored once and lives as long as
///   the container, so it is read without a lock; a cell's registration is compared by address without a lock
///   (`refers(to:)`, which dereferences nothing) and read as an object only under the container's lock, which
///   retiring it takes.
/// - **Task-local objects** (`boundObject(of:)`) are read where the binding that holds them stores them: a
///   binding outlives every synchronous use made inside its scope, in its task, its child tasks and (for a
///   binding made outside any task) its thread, and a task made inside it keeps its own copy.
/// - **Droppable references** (`DroppableReference`) own one retain of their object until it is dropped. A
///   reader copies the object (a retain) only while it holds the word's lock bit, and dropping takes that bit
///   before it releases, so a release never overtakes a reader's retain.
/// - **Once values** (`OnceValue`) are written once, before the address is published, and freed only by
///   their owner's `deinit`, after which no reader can hold the owner; a reader borrows the value in place.
/// - **Exact casts** (`cast(_:to:)`) reinterpret a value taken out of `Any` as a type only after checking
///   that the type is the very one the value was stored as: the same type, read as itself.
/// - **The `Sendable` claim** (`SendableReference`, and `AtomicReference`'s): what crosses threads through
///   them are registration tables and key-path snapshots (immutable after they are built), instance boxes,
///   which hold their value in a `let` (only services registered through the `Sendable`-constrained entry
///   points are kept by lifetimes that share an instance across threads), and the storage of a `Lock`, whose
///   state is only read or written between `pthread_mutex_lock` and `pthread_mutex_unlock` of the mutex
///   beside it (a `pthread_cond_wait` gives the mutex up and takes it back before the body runs again), and
///   whose values enter and leave only as `sending`, as with `Mutex`, so that no non-Sendable value is shared
///   through it.
@usableFromInline
package enum Unsafe {
    /// A reference that does no reference counting, valid only while something else keeps the object alive.
    @frozen @usableFromInline
    package struct Unowned<Object: AnyObject> {
        @usableFromInline let reference: Unmanaged<Object>

        @inlinable @inline(__always)
        package init(_ object: Object) {
            reference = .passUnretained(object)
        }

        @inlinable @inline(__always)
        init(_ reference: Unmanaged<Object>) {
            self.reference = reference
        }

        /// Runs `body` with the object, without retaining it.
        @inlinable @inline(__always)
        package func with<Result>(_ body: (Object) throws -> Result) rethrows -> Result {
            try reference._withUnsafeGuaranteedRef(body)
        }

        /// `object` as an `Object`, unretained, when it is one; valid for as long as the caller keeps `object`.
        ///
        /// A conditional cast (`as? Object`) hands back a retained reference, an atomic increment and decrement
        /// per call; testing the class and reusing the address does neither.
        @inlinable @inline(__always)
        package static func cast<Source: AnyObject>(_ object: Source) -> Self? {
            guard object is Object else { return nil }
            return Unowned(Unmanaged.fromOpaque(Unmanaged.passUnretained(object).toOpaque()))
        }

        /// The object, retained, or `nil` when its deinitialisation has begun. Only where the object's memory
        /// stays allocated until the caller is done, and a deinitialising object cannot finish its `deinit`
        /// before then (see `Unsafe`: a container's list of children, under its shard's lock).
        package func retainedUnlessDeinitialising() -> Object? {
            _ = reference.retain()
            guard !c_di_is_deinitialising(reference.toOpaque()) else {
                reference.release()
                return nil
            }
            return reference.takeRetainedValue()
        }

        /// The object, as an ordinary (retained) reference.
        @inlinable @inline(__always)
        package var object: Object { reference.takeUnretainedValue() }

        /// Whether both name the same object.
        @inlinable @inline(__always)
        package static func === (lhs: Self, rhs: Self) -> Bool {
            lhs.reference.toOpaque() == rhs.reference.toOpaque()
        }

        /// Whether this names `object`.
        @inlinable @inline(__always)
        package func refers(to object: Object) -> Bool {
            reference.toOpaque() == Unmanaged.passUnretained(object).toOpaque()
        }

        /// Retains `object` once for a C slot that owns it (a pthread key), and returns its address.
        package static func retainedAddress(of object: Object) -> UnsafeMutableRawPointer {
            Unmanaged.passRetained(object).toOpaque()
        }

        /// The object at an address from `retainedAddress(of:)`, unretained.
        @inlinable @inline(__always)
        package init(address: UnsafeRawPointer) {
            reference = Unmanaged.fromOpaque(address)
        }

        /// Gives back the retain `retainedAddress(of:)` took.
        package static func releaseRetained(at address: UnsafeRawPointer) {
            Unmanaged<Object>.fromOpaque(address).release()
        }
    }

    /// An atomic pointer that owns one retain of its object (none of a permanent one), with one spare bit a
    /// writer may set beside it.
    ///
    /// The pointer is kept as a word so that the tag bit (bit 0) travels in the same atomic load as the
    /// address; it is the one place an object is an integer. Bit 1 marks an object stored as permanent, which
    /// the reference does not own: objects are at least pointer-aligned, so both bits are free. A permanent
    /// object is one that every container shares (the empty registration table): retaining it for each of
    /// them would make every core that makes and closes containers write to that object's reference count,
    /// one cache line bounced between all of them. The compiler checks `Sendable` against the word only:
    /// what it points to is covered by the argument above.
    ///
    /// Exchanges, stores and `isEmpty` are sequentially consistent (on the machines Swift runs on, the same
    /// instructions as acquire-release ones, or nearly): a kept cell's slot stores its instance and then reads
    /// whether its container closed, while closing sets that flag and then looks for the instance (`isEmpty`)
    /// and exchanges it out, and neither may miss the other.
    @usableFromInline
    package struct AtomicReference<Object: AnyObject>: ~Copyable, Sendable {
        /// The object's address, retained unless bit 1 is set, with the tag in bit 0; `0` when empty.
        @usableFromInline let word: Atomic<UInt>

        /// Masks the tag and the permanent bit off a word.
        @usableFromInline static var addressMask: UInt { ~3 }
        private static var permanentBit: UInt { 2 }

        package init(_ object: Object? = nil, tag: Bool = false) {
            word = Atomic(Self.retainedWord(object, tag: tag))
        }

        /// A reference to `object`, which a `static let` keeps for the life of the process: stored without a
        /// retain (see `exchange(permanent:tag:)`).
        package init(permanent object: Object) {
            word = Atomic(Self.permanentWord(object, tag: false))
        }

        deinit {
            Self.release(word.load(ordering: .acquiring))
        }

        /// The object, without retaining it: valid while the writer's rules keep it alive (see `Unsafe`). For
        /// references never stored with a tag nor as permanent (use `loadTagged()` for the others): the word
        /// is the address as it is, with nothing to mask off on the way to a built singleton.
        @inlinable @inline(__always)
        package func load() -> Unowned<Object>? {
            let word = word.load(ordering: .acquiring)
            assert(word & ~Self.addressMask == 0, "a tagged or permanent reference read with load()")
            guard let address = UnsafeRawPointer(bitPattern: word) else { return nil }
            return Unowned(Unmanaged.fromOpaque(address))
        }

        /// Whether the reference is empty: never stored to, or emptied without a tag. One load; nothing is
        /// dereferenced.
        ///
        /// Sequentially consistent, as the exchanges and stores are: closing a container sets its cells' flag
        /// and then asks each cell's slot whether it holds an instance, while a slot stores its instance and
        /// then reads the flag. An acquiring load may be ordered before the flag's store (Arm's `LDAPR`, which
        /// compilers use for acquiring loads on processors that have it, may pass an earlier `STLR`), and the
        /// close could then skip an instance whose store had read the flag unset: kept by a closed container,
        /// and never disposed. On x86 and for Arm's `LDAR` both orderings are the same instruction.
        @inline(__always)
        package var isEmpty: Bool { word.load(ordering: .sequentiallyConsistent) == 0 }

        /// Whether the reference holds `object`, untagged: the addresses compared, nothing dereferenced, so a
        /// reader may ask while another thread replaces (and frees) what the reference held.
        @inline(__always)
        package func refers(to object: Object) -> Bool {
            word.load(ordering: .acquiring) == UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
        }

        /// The object, without retaining it, whatever the tag beside it; `nil` when there is none.
        package func loadIgnoringTag() -> Unowned<Object>? {
            let word = word.load(ordering: .acquiring)
            guard let address = UnsafeRawPointer(bitPattern: word & Self.addressMask) else { return nil }
            return Unowned(Unmanaged.fromOpaque(address))
        }

        /// The object, without retaining it, and the tag, from one atomic load.
        @inlinable @inline(__always)
        package func loadTagged() -> (object: Unowned<Object>, tag: Bool) {
            let word = word.load(ordering: .acquiring)
            return (
                Unowned(Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: word & Self.addressMask).unsafelyUnwrapped)),
                word & 1 != 0
            )
        }

        /// Stores `object` (retained) with `tag`, and returns the object it replaces, whose retain passes to
        /// the caller: dropping the result releases it, keeping it (a retired table) keeps it alive. `nil`
        /// when the reference was empty or held a permanent object, which it did not own.
        @discardableResult
        package func exchange(_ object: Object?, tag: Bool = false) -> Object? {
            Self.owned(word.exchange(Self.retainedWord(object, tag: tag), ordering: .sequentiallyConsistent))
        }

        /// Stores `object` with `tag`, without retaining it: only for an object a `static let` keeps for the
        /// life of the process. Returns the object it replaces as `exchange(_:tag:)` does.
        @discardableResult
        package func exchange(permanent object: Object, tag: Bool = false) -> Object? {
            Self.owned(word.exchange(Self.permanentWord(object, tag: tag), ordering: .acquiringAndReleasing))
        }

        /// Sets the tag beside the object stored, which stays as it is (and keeps its retain). For a writer
        /// that excludes other writers (a lock); readers see the new tag with the same object.
        package func setTag(_ tag: Bool) {
            let stored = word.load(ordering: .relaxed)
            word.store(tag ? stored | 1 : stored & ~1, ordering: .releasing)
        }

        /// Stores `object` (retained) if the reference is empty; returns whether it did. For references that
        /// are written once and never replaced, which lock-free readers may then use for the owner's life.
        @discardableResult
        package func storeIfEmpty(_ object: Object) -> Bool {
            let word = Self.retainedWord(object, tag: false)
            let (stored, _) = self.word.compareExchange(expected: 0, desired: word, ordering: .sequentiallyConsistent)
            if !stored { Self.release(word) }
            return stored
        }

        /// Empties the reference if it still holds `object` (untagged), releasing the reference's retain of it;
        /// returns whether it did. For a writer that stored `object` and finds it should not have: either it takes
        /// the object back, or another writer has taken it out first.
        package func takeBack(_ object: Object) -> Bool {
            let expected = UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
            let (taken, _) = word.compareExchange(expected: expected, desired: 0, ordering: .sequentiallyConsistent)
            if taken { Self.release(expected) }
            return taken
        }

        private static func retainedWord(_ object: Object?, tag: Bool) -> UInt {
            let address = object.map { UInt(bitPattern: Unmanaged.passRetained($0).toOpaque()) } ?? 0
            return tag ? address | 1 : address
        }

        private static func permanentWord(_ object: Object, tag: Bool) -> UInt {
            let address = UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque()) | permanentBit
            return tag ? address | 1 : address
        }

        /// The object `word` names, with the retain the reference held, or `nil` when it held none.
        private static func owned(_ word: UInt) -> Object? {
            guard word & addressMask != 0, word & permanentBit == 0 else { return nil }
            return Unmanaged<Object>.fromOpaque(UnsafeRawPointer(bitPattern: word & addressMask).unsafelyUnwrapped)
                .takeRetainedValue()
        }

        private static func release(_ word: UInt) {
            _ = owned(word)
        }
    }

    /// A strong reference the compiler cannot prove `Sendable` (an instance box of a service type it does
    /// not know, a lock's storage): DIToolkit's one unchecked claim of `Sendable`, made here for the reasons
    /// in `Unsafe`.
    @usableFromInline
    package struct SendableReference<Object: AnyObject>: @unchecked Sendable {
        @usableFromInline package let object: Object

        package init(_ object: Object) {
            self.object = object
        }
    }
}

extension Unsafe {
    /// A strong reference that any thread may copy and that is dropped once, when it is no longer needed: what
    /// a lazy property wrapper keeps of its container until it has resolved. One atomic word, the object's
    /// address (retained) with bit 0 set while a thread copies or drops it: where a lock would cost an
    /// allocation, a mutex to set up and tear down, and two lock sections per use.
    ///
    /// The bit is held for one retain or one store, never while other code runs, so a thread that finds it
    /// set waits a few instructions (and gives up the processor now and then, in case the holder was
    /// preempted).
    @usableFromInline
    package struct DroppableReference<Object: AnyObject & Sendable>: ~Copyable, Sendable {
        /// The object's address, retained, with the lock bit in bit 0; `0` once dropped.
        private let word: Atomic<UInt>

        @usableFromInline
        package init(_ object: Object) {
            word = Atomic(UInt(bitPattern: Unmanaged.passRetained(object).toOpaque()))
        }

        deinit {
            let word = word.load(ordering: .acquiring)
            if word != 0 { Self.object(at: word).release() }
        }

        /// The object, retained for the caller; `nil` once dropped.
        @usableFromInline
        package func copy() -> Object? {
            guard let word = lock() else { return nil }
            let object = Self.object(at: word).retain().takeRetainedValue()
            self.word.store(word, ordering: .releasing)
            return object
        }

        /// Releases the object, after every copy under way has taken its own retain; later copies get `nil`.
        @usableFromInline
        package func drop() {
            guard let word = lock() else { return }
            self.word.store(0, ordering: .releasing)
            Self.object(at: word).release()
        }

        /// Sets the lock bit and returns the word without it; `nil` (and no bit set) once dropped.
        private func lock() -> UInt? {
            var attempts = 0
            while true {
                let word = word.load(ordering: .relaxed)
                if word == 0 { return nil }
                if word & 1 == 0,
                   self.word.compareExchange(expected: word, desired: word | 1, ordering: .acquiring).exchanged {
                    return word
                }
                attempts += 1
                if attempts % 64 == 0 { sched_yield() }
            }
        }

        private static func object(at word: UInt) -> Unmanaged<Object> {
            Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: word).unsafelyUnwrapped)
        }
    }
}

extension Unsafe {
    /// A value stored once, in memory that never moves, published through an atomic pointer: readers borrow it
    /// through `address` without a lock or a reference count, for the life of the owner.
    @usableFromInline
    package struct OnceValue<Value>: ~Copyable {
        /// The address of the stored value; `0` until stored.
        @usableFromInline let word = Atomic<UInt>(0)

        @inlinable
        package init() {}

        deinit {
            let word = word.load(ordering: .acquiring)
            guard word != 0 else { return }
            let storage = UnsafeMutablePointer<Value>(bitPattern: word).unsafelyUnwrapped
            storage.deinitialize(count: 1)
            storage.deallocate()
        }

        /// The stored value's address, `nil` until one is stored; valid for the owner's life.
        @inlinable @inline(__always)
        package var address: UnsafePointer<Value>? {
            UnsafePointer(bitPattern: word.load(ordering: .acquiring))
        }

        /// Stores `value` unless one is stored already; returns the address of the value kept (the first).
        @usableFromInline
        package func storeIfEmpty(_ value: Value) -> UnsafePointer<Value> {
            let storage = UnsafeMutablePointer<Value>.allocate(capacity: 1)
            storage.initialize(to: value)
            let (exchanged, original) = word.compareExchange(
                expected: 0, desired: UInt(bitPattern: storage), ordering: .acquiringAndReleasing
            )
            if exchanged { return UnsafePointer(storage) }
            storage.deinitialize(count: 1)
            storage.deallocate()
            return UnsafePointer(bitPattern: original).unsafelyUnwrapped
        }
    }
}

extension Unsafe {
    /// The object `local` is bound to for the calling code, unretained; `nil` where nothing binds it (its
    /// default value applies).
    ///
    /// `TaskLocal.get()` finds the binding the same way and then copies the value out, a retain and a
    /// release that cost more than the lookup when the object has a side table (every child container has
    /// one). This asks the runtime for the binding's own storage instead: the lookup `get()` makes, through
    /// the entry point it calls, with the key it passes (the `TaskLocal` object), so the answer is the same
    /// binding. The object is valid while the binding is, which covers every synchronous use the caller
    /// makes of it (see `Unsafe`).
    @inlinable @inline(__always)
    package static func boundObject<Object: AnyObject & Sendable>(of local: TaskLocal<Object>) -> Unowned<Object>? {
        guard let storage = taskLocalValueAddress(UnsafeRawPointer(Unmanaged.passUnretained(local).toOpaque()))
        else { return nil }
        return Unowned(address: storage.load(as: UnsafeRawPointer.self))
    }
}

extension Unsafe {
    /// `value as! Instance`, for a caller that knows `value` is an `Instance`: without asking the runtime to
    /// cast it when `Instance` is exactly the type `value` was stored in `Any` as (an instance of a subclass
    /// stored as its superclass, or an optional, is cast as usual).
    ///
    /// A cast from `Any` asks the runtime to find the value's dynamic type and to check it against the target:
    /// some 260 instructions over a few dozen cache lines of the runtime's casting code, which a server runs
    /// for every request-scoped instance it disposes. Opening the `Any` and comparing two metadata pointers
    /// says the same when they are equal. (No `Optional<Instance>` on the way: in the unspecialised code that
    /// calls this, one would cost a metadata lookup.)
    @inlinable
    package static func cast<Instance>(_ value: Any, to type: Instance.Type) -> Instance {
        func stored<Stored>(_ stored: Stored) -> Instance {
            Stored.self == Instance.self ? unsafeBitCast(stored, to: Instance.self) : value as! Instance
        }
        return _openExistential(value, do: stored)
    }
}

/// The Swift runtime's task-local lookup, which `TaskLocal.get()` calls: the address of the value bound to
/// `key` (a `TaskLocal` object) in the current task, or on the current thread outside any task; `nil` when
/// unbound.
@usableFromInline @_silgen_name("swift_task_localValueGet")
func taskLocalValueAddress(_ key: UnsafeRawPointer) -> UnsafeRawPointer?

extension Unsafe.Unowned: Sendable where Object: Sendable {}
extension Unsafe.OnceValue: Sendable where Value: Sendable {}
