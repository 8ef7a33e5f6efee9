import DICore
import Testing

/// The ownership rules of `Unsafe.AtomicReference`, counted on objects of the test's own: a reference owns
/// one retain of what it stores, hands that retain back when the object is replaced, and neither takes nor
/// gives one for an object stored as permanent; setting the tag changes neither the object nor its count.
@Suite(.timeLimit(.minutes(1))) struct AtomicReferenceTests {
    final class Object {}

    @Test func aPermanentObjectIsNeverRetainedNorReleased() {
        let permanent = Object()
        let owned = Object()
        let base = (permanent: _getRetainCount(permanent), owned: _getRetainCount(owned))
        do {
            let reference = Unsafe.AtomicReference<Object>(permanent: permanent)
            #expect(_getRetainCount(permanent) == base.permanent)
            reference.setTag(true)
            #expect(reference.loadTagged().tag)
            #expect(reference.loadTagged().object.refers(to: permanent))
            #expect(_getRetainCount(permanent) == base.permanent)

            // Replacing the permanent object hands back nothing, and keeps one retain of the new one.
            #expect(reference.exchange(owned, tag: false) == nil)
            #expect(_getRetainCount(owned) == base.owned + 1)
            #expect(_getRetainCount(permanent) == base.permanent)

            // Replacing the owned object hands its retain back to the caller, who drops it here.
            let handedBack = reference.exchange(permanent: permanent, tag: true)
            #expect(handedBack === owned)
            _ = consume handedBack
            #expect(_getRetainCount(owned) == base.owned)
            #expect(reference.loadTagged().object.refers(to: permanent))
            #expect(reference.loadTagged().tag)
            reference.setTag(false)
            #expect(!reference.loadTagged().tag)
            #expect(reference.loadTagged().object.refers(to: permanent))
        }
        // Destroying a reference that holds a permanent object releases nothing.
        #expect(_getRetainCount(permanent) == base.permanent)
        #expect(_getRetainCount(owned) == base.owned)
    }

    @Test func anOwnedObjectIsReleasedWithTheReference() {
        let owned = Object()
        let base = _getRetainCount(owned)
        do {
            let reference = Unsafe.AtomicReference<Object>(owned)
            #expect(_getRetainCount(owned) == base + 1)
            reference.setTag(true)
            #expect(_getRetainCount(owned) == base + 1)
            #expect(reference.loadTagged().object.refers(to: owned))
        }
        #expect(_getRetainCount(owned) == base)
    }
}
