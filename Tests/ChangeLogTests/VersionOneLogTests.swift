import Foundation
import ListAdapter
import ListFormat
import Testing

@testable import ChangeLog

/// The log in Tests/Fixtures/v1-log, written by the project before the record format had section
/// summaries (see its README): it must keep reading, verifying and exporting exactly.
@Suite("A version-1 log")
struct VersionOneLogTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/v1-log")

    /// The fixture's file `name`.
    static func fixtureFile(_ name: String) throws -> Data {
        try Data(contentsOf: fixture.appendingPathComponent(name))
    }

    /// Opens a copy of the fixture's log (the checked-in file stays untouched).
    static func withFixtureLog<R>(_ body: (ChangeLog) async throws -> R) async throws -> R {
        try await withTemporaryDirectory { path in
            try fixtureFile("data.mdb").write(to: URL(fileURLWithPath: path).appendingPathComponent("data.mdb"))
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path + "/data.mdb")
            return try await body(try ChangeLog(path: path, options: .init(createIfMissing: false)))
        }
    }

    /// The lines of a fixture file, without the last newline.
    static func lines(_ name: String) throws -> [Substring] {
        let text = String(decoding: try fixtureFile(name), as: UTF8.self)
        #expect(text.hasSuffix("\n"))
        return text.dropLast().split(separator: "\n", omittingEmptySubsequences: false)
    }

    @Test("every revision reads back as the snapshot imported, and the log verifies")
    func readsAndVerifies() async throws {
        let history = try Self.lines("history.jsonl").map { try InterchangeFormat.readImportLine(Array($0.utf8)) }
        #expect(history.count == 20)
        try await Self.withFixtureLog { log in
            var previous = LogSnapshot()
            var revision: UInt64 = 0
            for try await record in log.records(from: 1) {
                revision += 1
                #expect(record.revision == revision)
                let imported = history[Int(revision) - 1]
                #expect(record.snapshot == imported.snapshot)
                #expect(record.meta == imported.meta)
                #expect(try log.snapshot(at: revision) == record.snapshot)
                #expect(try previous.applying(record.changes) == record.snapshot)
                #expect(record.changes == previous.changes(to: record.snapshot))
                previous = record.snapshot
            }
            #expect(revision == 20)
            let report = try await log.verify()
            #expect(report.isValid, "\(report)")
            #expect(report.revisionsChecked == 20)
        }
    }

    @Test("the export the old code wrote reads back, as version-1 revision lines, as the records read now")
    func oldExportReads() async throws {
        let oldExport = try Self.lines("export-written-by-v1.jsonl")
        #expect(!oldExport.joined().contains("\"updated\":[]},\"items\""))
        try await Self.withFixtureLog { log in
            var index = 0
            for try await record in log.records(from: 1) {
                #expect(try RevisionRecord(jsonLine: Array(oldExport[index].utf8)) == record)
                index += 1
            }
            #expect(index == oldExport.count)
        }
    }

    @Test("its export is the checked-in one, line for line, and each line reads back as its record")
    func exportsExactly() async throws {
        let expected = try Self.lines("expected-export.jsonl")
        try await Self.withFixtureLog { log in
            var exported: [String] = []
            for try await record in log.records(from: 1) {
                let line = record.jsonLine()
                exported.append(line)
                #expect(try RevisionRecord(jsonLine: Array(line.utf8)) == record)
            }
            #expect(exported.count == expected.count)
            for (line, expectedLine) in zip(exported, expected) {
                #expect(line == expectedLine)
            }
        }
    }
}
