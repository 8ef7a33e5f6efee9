extension String {
    /// `count` and `noun`, the noun in the plural unless the count is one: "1 error", "3 notes".
    static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    /// The string followed by spaces up to `width` characters, for aligned columns.
    func padded(to width: Int) -> String {
        let own = columnWidth
        return own >= width ? self : self + String(repeating: " ", count: width - own)
    }
}

extension String {
    /// How many characters the string shows (`count`), counted without Unicode segmentation when the
    /// text is ASCII, as type names and scopes nearly always are.
    var columnWidth: Int {
        let ascii = utf8.withContiguousStorageIfAvailable { bytes in
            // Outside ASCII, or a carriage return (which pairs with a line feed into one character).
            !bytes.contains { $0 >= 0x80 || $0 == 0x0D }
        }
        return ascii == true ? utf8.count : count
    }

}

extension String {
    /// Every occurrence of `target` replaced, without Foundation.
    func replacingOccurrences(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}

extension String {
    /// The string on one line: a line break, a tab or another control character in it (a container named
    /// `"app\nmain"`) written as its escape (`app\nmain`), so that it cannot break a line-based layout.
    var onOneLine: String {
        // Bytes first: a C0 control or DEL is one byte, and a C1 control starts with 0xC2, which names rarely hold.
        if !utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 })
            || !unicodeScalars.contains(where: Self.isControl)
        {
            return self
        }
        var result = ""
        for scalar in unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where Self.isControl(scalar): result += scalar.escaped(asASCII: true)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// C0 and C1 control characters, which include the line breaks other than `\n` (U+0085).
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
