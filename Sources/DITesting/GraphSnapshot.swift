import DICore
import DIDiagnostics
import Foundation
import Testing

/// Compares the text of `container`'s dependency graph (`graph().text()`) with a snapshot file committed
/// next to the test, so that a change to the wiring shows up in code review as a change to that file.
///
/// The snapshot of `name` lives at `__Snapshots__/<TestFile>/<name>.txt` beside the test file (found from
/// `filePath`), or at `<directory>/<name>.txt` when `directory` is given. Then:
///
/// - when the file does not exist, or the environment variable `DI_RECORD_SNAPSHOTS` is `1`, the graph is
///   written to it and a failure saying so is recorded — a recording never passes, so CI cannot go green on a
///   snapshot nobody reviewed; run the test again (or commit the file) and it compares;
/// - otherwise, when the graph differs from the file, a failure lists the first differing lines and says how
///   to re-record.
///
/// ```swift
/// @Test func appWiringIsReviewed() throws {
///     let app = Container(name: "app")
///     try AppModule.register(in: app)
///     expectGraphSnapshot(of: app, named: "app")   // Tests/AppTests/__Snapshots__/AppWiringTests/app.txt
/// }
/// ```
///
/// Re-record after an intended change with `DI_RECORD_SNAPSHOTS=1 swift test --filter AppWiringTests`, and
/// review the snapshot's diff. SwiftPM warns about files it does not know in a target's folder: add
/// `exclude: ["__Snapshots__"]` to the test target in `Package.swift`.
///
/// - Parameters:
///   - container: The container whose graph is compared (with its ancestors and descendants).
///   - name: The snapshot's name, unique within the test file; it becomes the file name.
///   - instantiating: Build every service in throw-away copies first, so the graph also shows the
///     dependencies of closure factories (see `Container.graph(instantiating:)`).
///   - directory: The folder of the snapshot file, instead of `__Snapshots__/<TestFile>` beside the test.
///   - fileID: Where it was called; leave the default.
///   - filePath: Where it was called; leave the default. The default snapshot folder is found from it.
///   - line: Where it was called; leave the default.
///   - column: Where it was called; leave the default.
/// - Returns: `true` when the graph matched the snapshot; `false` when it was recorded or did not match.
@discardableResult
public func expectGraphSnapshot(
    of container: Container,
    named name: String,
    instantiating: Bool = false,
    directory: String? = nil,
    fileID: String = #fileID,
    filePath: String = #filePath,
    line: Int = #line,
    column: Int = #column
) -> Bool {
    let snapshot = GraphSnapshot(named: name, of: container.name, directory: directory, testFile: filePath)
    let location = Testing.SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let failure = snapshot.check(container.graph(instantiating: instantiating).text(),
                                 recording: GraphSnapshot.recordingRequested)
    if let failure { FailureReporter.current.record(failure, location) }
    return failure == nil
}

/// One graph snapshot file: where it lives, and how a graph's text compares with it.
struct GraphSnapshot: Sendable {
    /// The environment variable that makes every snapshot record instead of compare.
    static let recordVariable = "DI_RECORD_SNAPSHOTS"

    /// How many differing lines a mismatch lists.
    static let shownDifferences = 5

    let name: String
    let container: String
    let testFileStem: String
    let url: URL

    /// Whether `DI_RECORD_SNAPSHOTS=1` asks to record.
    static var recordingRequested: Bool {
        ProcessInfo.processInfo.environment[recordVariable] == "1"
    }

    init(named name: String, of container: String, directory: String?, testFile: String) {
        let testFile = URL(fileURLWithPath: testFile)
        let stem = testFile.deletingPathExtension().lastPathComponent
        let folder = directory.map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? testFile.deletingLastPathComponent()
                .appendingPathComponent("__Snapshots__", isDirectory: true)
                .appendingPathComponent(stem, isDirectory: true)
        let fileName = name.replacingOccurrences(of: "/", with: "_") + ".txt"
        self.name = name
        self.container = container
        self.testFileStem = stem
        self.url = folder.appendingPathComponent(fileName)
    }

    /// Compares `actual` with the file, or records it there; returns the failure to report, `nil` on a match.
    func check(_ actual: String, recording: Bool) -> String? {
        let recorded: String?
        do {
            recorded = FileManager.default.fileExists(atPath: url.path)
                ? try String(contentsOf: url, encoding: .utf8) : nil
        } catch {
            return "Could not read graph snapshot \"\(name)\" at \(url.path): \(error). Check the file's "
                + "permissions, or delete it to record it again."
        }
        guard let recorded, !recording else {
            return record(actual, replacing: recorded != nil, requested: recording)
        }
        let expected = Self.normalised(recorded)
        guard expected != actual else { return nil }
        return mismatch(expected: expected, actual: actual)
    }

    private func record(_ actual: String, replacing: Bool, requested: Bool) -> String {
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true
            )
            try Data((actual + "\n").utf8).write(to: url, options: .atomic)
        } catch {
            return "Could not record graph snapshot \"\(name)\" of \(container) at \(url.path): \(error). "
                + "Check that the folder is writable, or pass another `directory:`."
        }
        let why = replacing ? "\(Self.recordVariable)=1 is set" : "there was no snapshot yet"
        let again = requested ? "run the test again without \(Self.recordVariable)" : "run the test again"
        return "Recorded graph snapshot \"\(name)\" of \(container) at \(url.path), because \(why). A recording "
            + "always fails the test so that CI never passes on an unreviewed snapshot: review the file, commit "
            + "it, and \(again)."
    }

    private func mismatch(expected: String, actual: String) -> String {
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let differing = (0..<max(old.count, new.count)).filter { index in
            index >= old.count || index >= new.count || old[index] != new[index]
        }
        var lines = [
            "The graph of \(container) does not match snapshot \"\(name)\" at \(url.path): "
                + "\(differing.count) line\(differing.count == 1 ? "" : "s") differ."
        ]
        for index in differing.prefix(Self.shownDifferences) {
            lines.append("  line \(index + 1):")
            lines.append("    - snapshot: " + (index < old.count ? String(old[index]) : "(no line)"))
            lines.append("    + graph:    " + (index < new.count ? String(new[index]) : "(no line)"))
        }
        if differing.count > Self.shownDifferences {
            lines.append("  … and \(differing.count - Self.shownDifferences) more.")
        }
        lines.append(
            "If the change is intended, re-record with `\(Self.recordVariable)=1 swift test --filter "
                + "\(testFileStem)` and review the snapshot's diff; otherwise fix the wiring."
        )
        return lines.joined(separator: "\n")
    }

    /// The file's text as `graph().text()` returns it: `\n` line ends, without the final line end.
    static func normalised(_ text: String) -> String {
        var text = text.replacingOccurrences(of: "\r\n", with: "\n")
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}
