/// What kind of type a metatype stands for: a class, a protocol existential, or a value type.
///
/// Swift has no public API that tells `(any Router).self` from `Point.self` given only an `Any.Type`, and
/// `.weak` must refuse the second while accepting the first. The metadata kind, the first word of every
/// non-class type's metadata, is part of Swift's stable ABI (`MetadataKind` in `swift/ABI/MetadataValues.h`),
/// so it is read here, and only after `is AnyClass` has taken care of every class. Messages use it too, to
/// write an existential as Swift does (`any Router`, where the runtime prints `Router`).
package enum TypeKind: Equatable {
    case `class`
    /// A protocol existential (`any Router`, `any Router & Sendable`, `Any`, `any Collection<Int>`).
    case existential
    /// A value type, with the words that describe it: "a struct", "an optional", ….
    case value(String)

    package init(_ type: Any.Type) {
        if type is AnyClass {
            self = .class
            return
        }
        let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
        switch metadata.load(as: UInt.self) {
        case 0x200: self = .value("a struct")
        case 0x201: self = .value("an enum")
        case 0x202: self = .value("an optional")
        case 0x203, 0x204, 0x305: self = .class  // foreign and Objective-C classes
        case 0x301: self = .value("a tuple")
        case 0x302: self = .value("a function type")
        case 0x303, 0x307: self = .existential  // existential, extended (parameterized) existential
        case 0x304, 0x306: self = .value("a metatype")
        case let kind where kind > 0x7FF: self = .class  // an isa pointer: Objective-C interoperable class
        default: self = .value("a value type")
        }
    }
}
