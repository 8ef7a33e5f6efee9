/// UTF-8 text written piece by piece and turned into one `String` at the end.
///
/// A graph's text is tens of thousands of short pieces; appending each to a `String` costs several times
/// more than copying its bytes into one growing buffer.
struct TextBuffer {
    private var bytes: [UInt8] = []

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    static func += (buffer: inout TextBuffer, text: String) {
        buffer.bytes.append(contentsOf: text.utf8)
    }

    /// Appends `count` spaces (none when `count` is not positive).
    mutating func appendSpaces(_ count: Int) {
        guard count > 0 else { return }
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: count))
    }

    /// Appends `number` in decimal.
    mutating func append(_ number: Int) {
        self += String(number)
    }

    /// The text written so far.
    var text: String { String(decoding: bytes, as: UTF8.self) }
}
