import Foundation
import ListAdapter
import ListFormat
import Testing

@testable import ChangeLog

/// The log in Tests/Fixtures/format-1-log, written before chunks could be compressed (see its
/// README): it must keep reading, verifying and exporting exactly.
@Suite("A log in the first chunk layout")
struct FormatOneLogTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/format-1-log")

    /// The lines of the fixture's file `name`, without the last newline.
    static func lines(_ name: String) throws -> [Substring] {
        let text = String(decoding: try Data(contentsOf: fixture.appendingPathComponent(name)), as: UTF8.self)
        #expect(text.hasSuffix("\n"))
        return text.dropLast().split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// Opens a copy of the fixture's log (the checked-in file stays untouched).
    static func withFixtureLog<R>(_ body: (ChangeLog) async throws -> R) async throws -> R {
        try await withTemporaryDirectory { path in
            let data = try Data(contentsOf: fixture.appendingPathComponent("data.mdb"))
            try data.write(to: URL(fileURLWithPath: path).appendingPathComponent("data.mdb"))
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path + "/data.mdb")
            return try await body(try ChangeLog(path: path, options: .init(createIfMissing: false)))
        }
    }

    @Test("it verifies, and every revision exports as the checked-in line and reads back on its own")
    func verifiesAndExportsExactly() async throws {
        let expected = try Self.lines("expected-export.jsonl")
        #expect(expected.count == 26)
        try await Self.withFixtureLog { log in
            let report = try await log.verify()
            #expect(report.isValid, "\(report)")
            #expect(report.revisionsChecked == 26)
            var exported: [String] = []
            for try await record in log.records(from: 1) {
                exported.append(record.jsonLine())
                #expect(try log.snapshot(at: record.revision) == record.snapshot)
            }
            #expect(exported.count == expected.count)
            for (line, expectedLine) in zip(exported, expected) {
                #expect(line == expectedLine)
            }
        }
    }

    @Test("a revision appended after it reads back, and the log still verifies")
    func appendsAfterIt() async throws {
        let last = try RevisionRecord(jsonLine: Array(try Self.lines("expected-export.jsonl").last!.utf8))
        try await Self.withFixtureLog { log in
            var sections = last.snapshot.sections
            sections[0].items[1].summary = "changed after"
            let snapshot = try LogSnapshot(sections: sections)
            let revision = try await log.append(snapshot).revision
            #expect(revision == 27)
            #expect(try log.snapshot(at: 27) == snapshot)
            #expect(try log.snapshot(at: 26) == last.snapshot)
            let report = try await log.verify()
            #expect(report.isValid, "\(report)")
        }
    }
}
