@testable import DITesting
import DICore
import DIDiagnostics
import Foundation
import Testing

@Suite struct GraphSnapshotTests {
    /// A fresh folder for one test's snapshots, so tests never write into the repository.
    static func temporaryFolder() -> String {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("DITestingSnapshots-\(UUID().uuidString)", isDirectory: true).path
    }

    @Test func theCommittedSnapshotOfASmallGraphMatches() throws {
        // Compares with __Snapshots__/GraphSnapshotTests/shop.txt beside this file.
        #expect(expectGraphSnapshot(of: try Shop.valid(), named: "shop"))
    }

    @Test func theFirstRunRecordsAndFailsThenTheNextRunMatches() throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let shop = try Shop.valid()
        let reports = Log()
        let recorded = FailureReporter.$injected.withValue(.capturing(reports.append)) {
            expectGraphSnapshot(of: shop, named: "shop", directory: folder)
        }
        #expect(!recorded)
        let failure = try #require(reports.entries.first)
        #expect(failure.hasPrefix("Recorded graph snapshot \"shop\" of shop at \(folder)/shop.txt"))
        #expect(failure.contains("because there was no snapshot yet"))
        // Nothing asked to record: the way out does not mention the variable.
        #expect(failure.hasSuffix("review the file, commit it, and run the test again."), "\(failure)")
        let file = try String(contentsOfFile: folder + "/shop.txt", encoding: .utf8)
        #expect(file == shop.graph().text() + "\n")

        let matched = FailureReporter.$injected.withValue(.capturing(reports.append)) {
            expectGraphSnapshot(of: shop, named: "shop", directory: folder)
        }
        #expect(matched)
        #expect(reports.entries.count == 1)
    }

    @Test func aChangedGraphIsReportedWithTheFirstDifferingLines() throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let reports = Log()
        FailureReporter.$injected.withValue(.capturing(reports.append)) {
            expectGraphSnapshot(of: try! Shop.valid(), named: "shop", directory: folder)
        }
        let changed = try Shop.valid(journalScope: .transient)
        let matched = FailureReporter.$injected.withValue(.capturing(reports.append)) {
            expectGraphSnapshot(of: changed, named: "shop", directory: folder)
        }
        #expect(!matched)
        #expect(reports.entries.count == 2)
        #expect(reports.entries.last == """
            The graph of shop does not match snapshot "shop" at \(folder)/shop.txt: 3 lines differ.
              line 2:
                - snapshot: ├── Journal  singleton  Shop/Setup.swift:3  [DI-OPAQUE]
                + graph:    ├── Journal  transient  Shop/Setup.swift:3  [DI-OPAQUE]
              line 3:
                - snapshot: ├── Ledger   singleton  Shop/Setup.swift:4
                + graph:    ├── Ledger   singleton  Shop/Setup.swift:4  [DI-CAPTIVE]
              line 7:
                - snapshot: 3 registrations in 1 container; findings: 0 errors, 0 warnings, 1 note.
                + graph:    3 registrations in 1 container; findings: 0 errors, 1 warning, 1 note.
            If the change is intended, re-record with `DI_RECORD_SNAPSHOTS=1 swift test --filter \
            GraphSnapshotTests` and review the snapshot's diff; otherwise fix the wiring.
            """)
    }

    @Test func recordingOnRequestReplacesTheSnapshotAndStillFails() throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let snapshot = GraphSnapshot(named: "shop", of: "shop", directory: folder, testFile: #filePath)
        #expect(snapshot.check("old", recording: false)?.contains("there was no snapshot yet") == true)
        #expect(snapshot.check("old", recording: false) == nil)
        let failure = try #require(snapshot.check("new", recording: true))
        #expect(failure.contains("because DI_RECORD_SNAPSHOTS=1 is set"))
        #expect(failure.hasSuffix("and run the test again without DI_RECORD_SNAPSHOTS."), "\(failure)")
        #expect(snapshot.check("new", recording: false) == nil)
    }

    @Test func theDefaultFolderIsBesideTheTestFile() {
        let snapshot = GraphSnapshot(
            named: "app/main", of: "app", directory: nil, testFile: "/repo/Tests/AppTests/WiringTests.swift"
        )
        #expect(snapshot.url.path == "/repo/Tests/AppTests/__Snapshots__/WiringTests/app_main.txt")
    }

    @Test func aLongDiffListsFiveLinesAndCountsTheRest() throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let snapshot = GraphSnapshot(named: "long", of: "app", directory: folder, testFile: #filePath)
        _ = snapshot.check((1...8).map { "line \($0)" }.joined(separator: "\n"), recording: false)
        let failure = try #require(snapshot.check((1...9).map { "other \($0)" }.joined(separator: "\n"),
                                                  recording: false))
        #expect(failure.contains("9 lines differ."))
        #expect(failure.contains("  line 5:\n"))
        #expect(!failure.contains("  line 6:\n"))
        #expect(failure.contains("  … and 4 more."))
        #expect(failure.contains("    - snapshot: (no line)") == false)
    }
}
