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
