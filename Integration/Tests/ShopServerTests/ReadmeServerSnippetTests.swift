import Foundation
import Testing

/// The README's server snippet needs Hummingbird, so `.ci/snippets` (which compiles against DIToolkit alone)
/// skips it; instead every line of it must be a line of the compiled `ShopServer` sources, so it cannot rot.
@Suite struct ReadmeServerSnippetTests {
    private static let integration = URL(filePath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func everyLineOfTheServerSnippetIsALineOfTheServerSources() throws {
        let readme = try String(contentsOf: Self.integration.appending(path: "../README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "```swift server\n"))
        let end = try #require(readme.range(of: "\n```", range: start.upperBound..<readme.endIndex))
        let snippet = readme[start.upperBound..<end.lowerBound].split(separator: "\n").map(Self.code)

        let folder = Self.integration.appending(path: "Sources/ShopServer")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path())
        var sourceLines = Set<String>()
        for file in files where file.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appending(path: file), encoding: .utf8)
            sourceLines.formUnion(text.split(separator: "\n").map(Self.code))
        }
        #expect(snippet.count >= 5)
        for line in snippet where !line.isEmpty {
            #expect(sourceLines.contains(line), "README line not in Sources/ShopServer: \(line)")
        }
    }

    /// A line without its indentation and trailing `//` comment.
    private static func code(_ line: Substring) -> String {
        var code = line.trimmingCharacters(in: .whitespaces)
        if let comment = code.range(of: "   //") { code = String(code[..<comment.lowerBound]) }
        return code.trimmingCharacters(in: .whitespaces)
    }
}
