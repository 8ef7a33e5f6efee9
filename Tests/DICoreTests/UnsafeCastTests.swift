import DICore
import Testing

/// `Unsafe.cast(_:to:)` gives what `as!` gives: the value itself, read in place when `Any` holds exactly the
/// asked type (inline or boxed, a class, a struct with references), cast by the runtime otherwise (a subclass
/// stored as its superclass, an optional, a value that went through an existential), with every reference
/// counted once.
@Suite struct UnsafeCastTests {
    class Base {}
    final class Derived: Base {}
    final class Tracked {
        let deinits: Counter
        init(_ deinits: Counter) { self.deinits = deinits }
        deinit { deinits.count += 1 }
    }
    final class Counter { var count = 0 }
    protocol Shape {}
    /// Fits the three words `Any` keeps inline.
    struct Small: Shape, Equatable { var name: String; var size: Int }
    /// Too big for them: `Any` boxes it.
    struct Large: Shape, Equatable { var name: String; var values: [Int]; var a: Int; var b: Int; var c: Int }

    @Test func aValueStoredAsExactlyTheTypeIsTheSameValue() {
        let small = Small(name: "a string too long to be stored inline in its own bytes", size: 7)
        let large = Large(name: "large", values: [1, 2, 3], a: 4, b: 5, c: 6)
        let object = Derived()
        #expect(Unsafe.cast(small as Any, to: Small.self) == small)
        #expect(Unsafe.cast(large as Any, to: Large.self) == large)
        #expect(Unsafe.cast(object as Any, to: Derived.self) === object)
        #expect(Unsafe.cast(42 as Any, to: Int.self) == 42)
    }

    @Test func aValueStoredAsAnotherTypeIsCastByTheRuntime() {
        let object = Derived()
        let shape: any Shape = Large(name: "through an existential", values: [9], a: 1, b: 2, c: 3)
        #expect(Unsafe.cast(object as Base as Any, to: Derived.self) === object)
        #expect(Unsafe.cast(Derived?.some(object) as Any, to: Derived.self) === object)
        #expect(Unsafe.cast(shape as Any, to: Large.self) == shape as? Large)
    }

    /// The value read in place is a copy of its own: the `Any` and the result each release theirs.
    @Test func everyReferenceIsCountedOnce() {
        let counter = Counter()
        do {
            let tracked = Tracked(counter)
            let base = _getRetainCount(tracked)
            var value: Any? = tracked
            var cast: Tracked? = Unsafe.cast(value!, to: Tracked.self)
            #expect(cast === tracked)
            #expect(_getRetainCount(tracked) == base + 2)
            value = nil
            cast = nil
            #expect(_getRetainCount(tracked) == base)
            _ = (value, cast)
        }
        #expect(counter.count == 1)
    }
}
