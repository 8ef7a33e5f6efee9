import Foundation

/// An article of the package's documentation, for tests that check the output it shows is what the code prints.
package struct DocumentationArticle {
    /// The article's text.
    package let text: String

    /// Reads the article at `path`, relative to the package's root (`Sources/DICore/Documentation.docc/…`).
    package init(_ path: String) throws {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The article's `text` blocks, in order; with `marker`, those after its first occurrence.
    package func textBlocks(after marker: String? = nil) -> [String] {
        let rest = marker.map { text.components(separatedBy: $0).dropFirst().joined(separator: $0) } ?? text
        return rest.components(separatedBy: "```text\n").dropFirst().map { block in
            block.components(separatedBy: "\n```").first ?? ""
        }
    }
}
