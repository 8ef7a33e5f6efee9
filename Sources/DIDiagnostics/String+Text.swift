extension String {
    /// The string followed by spaces up to `width` characters, for aligned columns.
    func padded(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
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
