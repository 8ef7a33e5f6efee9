import DICore
import Dispatch
import Synchronization
import Testing

/// The ownership rules of `Unsafe.DroppableReference`: it owns one retain of its object until dropped, each
/// copy hands the caller a retain of its own, dropping gives the reference's retain back once, and no copy
/// made while another thread drops can find the object already released.
@Suite(.timeLimit(.minutes(1))) struct DroppableReferenceTests {
    final class Object: Sendable {
        let counter: Counter

        init(counter: Counter) { self.counter = counter }

        deinit { counter.deinits.add(1, ordering: .relaxed) }
    }

    final class Counter: Sendable {
        let deinits = Atomic(0)
    }

    @Test func aCopyIsRetainedForTheCallerAndDroppingReleasesOnce() {
        let object = Object(counter: Counter())
        let base = _getRetainCount(object)
        do {
            let reference = Unsafe.DroppableReference(object)
            #expect(_getRetainCount(object) == base + 1)
            do {
                let copy = reference.copy()
                #expect(copy === object)
                #expect(_getRetainCount(object) == base + 2)
            }
            #expect(_getRetainCount(object) == base + 1)
            reference.drop()
            #expect(_getRetainCount(object) == base)
            #expect(reference.copy() == nil)
            reference.drop()
            #expect(_getRetainCount(object) == base)
        }
        // Destroying a dropped reference releases nothing more.
        #expect(_getRetainCount(object) == base)
    }

    @Test func anUndroppedObjectIsReleasedWithTheReference() {
        let counter = Counter()
        do {
            let reference = Unsafe.DroppableReference(Object(counter: counter))
            #expect(reference.copy() != nil)
            #expect(counter.deinits.load(ordering: .relaxed) == 0)
        }
        #expect(counter.deinits.load(ordering: .relaxed) == 1)
    }

    /// Threads copy while one of them drops: every copy is either the live object (retained, usable after
    /// the drop) or `nil`, and the object is freed once, after the last copy is gone.
    @Test(arguments: [1, 2, 3, 16])
    func copiesRacingADropNeverSeeAFreedObject(threads: Int) {
        let counter = Counter()
        for round in 0..<200 {
            let reference = Unsafe.DroppableReference(Object(counter: counter))
            DispatchQueue.concurrentPerform(iterations: threads + 1) { thread in
                if thread == round % (threads + 1) {
                    reference.drop()
                    return
                }
                for _ in 0..<50 {
                    // A copy is used through the caller's own retain: its object is not freed yet.
                    if let copy = reference.copy() { #expect(copy.counter === counter) }
                }
            }
            #expect(reference.copy() == nil)
            // Freed once, when the drop and the last copy have let go.
            #expect(counter.deinits.load(ordering: .relaxed) == round + 1)
        }
    }
}
