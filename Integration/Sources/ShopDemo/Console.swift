/// The demo's output helpers: headed sections, aligned tables, indented blocks.
enum Console {
    static let width = 78

    /// `━━ 1. Browse the catalog ━━━━━…`
    static func section(_ title: String) {
        let rule = String(repeating: "━", count: max(3, width - title.count - 4))
        print("\n━━ \(title) \(rule)")
    }

    /// Prints rows with every column padded to its widest cell, indented by `indent` spaces.
    static func table(_ rows: [[String]], indent: Int = 2) {
        guard let columns = rows.map(\.count).max() else { return }
        let widths = (0..<columns).map { column in
            rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0
        }
        for row in rows {
            let cells = row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
            }
            print(String(repeating: " ", count: indent) + cells.joined(separator: "   "))
        }
    }

    /// Prints `text` with every line indented.
    static func block(_ text: String, indent: Int = 2) {
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            print(line.isEmpty ? "" : String(repeating: " ", count: indent) + line)
        }
    }

    /// Prints what a step resolved, as a table.
    static func resolutions(_ entries: [ResolutionLog.Entry]) {
        let header = ["resolved", "lifetime", "asked by", "registered in", "instance"]
        let rows = entries.map { entry in
            [entry.service, entry.lifetime, entry.askedBy, entry.registeredIn, entry.isNew ? "new" : "reused"]
        }
        table([header] + rows, indent: 4)
    }
}
