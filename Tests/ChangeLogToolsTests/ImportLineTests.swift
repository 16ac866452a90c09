import ChangeLog
import Foundation
import ListAdapter
import ListFormat
import Testing

@testable import ChangeLogTools

/// What the importer makes of single lines: the revision lines an export writes, lines that
/// are both kinds at once, and lines in another encoding, named with their line number.
@Suite("Import lines")
struct ImportLineTests {
    @Test("the revision lines `replay export` writes import as their snapshot and meta, byte for byte")
    func exportedRevisionLines() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            let snapshots = [
                try snapshot([("A", ["a:1", "b"])]),
                try snapshot([("A", ["b", "a:2", "é:ü"]), ("", ["c:x\"y\\z\n"])]),
                try snapshot([("B\u{212A}", ["e\u{301}:😀", "c:\u{7F}"]), ("A", ["b"])]), LogSnapshot(),
            ]
            for (index, snapshot) in snapshots.enumerated() {
                _ = try await log.append(snapshot, meta: index == 1 ? [:] : ["commit": "c\(index)", "ключ": "é"])
            }
            var previous: LogSnapshot?
            for try await record in log.records(from: 1) {
                let line = Array(record.jsonLine().utf8)
                let read = try line.withUnsafeBufferPointer {
                    try SnapshotImporter.decode(line: $0, lineNumber: Int(record.revision), previous: previous)
                }
                #expect(read.meta == record.meta)
                #expect(Array(read.snapshot.formatJSON().utf8) == Array(record.snapshot.formatJSON().utf8))
                #expect(try RevisionRecord(jsonLine: line) == record)
                previous = read.snapshot
            }
        }
    }

    @Test("a line with both `sections` and `snapshot` is refused, saying so, with its line number")
    func snapshotAndRevisionLine() {
        let error = #expect(throws: SnapshotImportError.self) {
            try SnapshotImporter.decode(
                line: Data(#"{"sections": [], "snapshot": {"sections": []}}"#.utf8), lineNumber: 4)
        }
        #expect(
            error?.description
                == #"line 4, column 18: the object holds both "sections", as a snapshot line does, and "snapshot", "#
                + "as a revision line does; it may hold one of the two")
    }

    @Test("a UTF-16 line is refused, naming the line; the same object in UTF-8 for its repeated key")
    func utf16Line() {
        let json = #"{"sections":[{"title":"a","title":"b","items":[]}]}"#
        let utf16 = json.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(
            throws: SnapshotImportError(
                line: 3, problem: "column 1: the text is UTF-16, not UTF-8: the interchange format is UTF-8")
        ) {
            try SnapshotImporter.decode(line: utf16, lineNumber: 3)
        }
        #expect(
            throws: SnapshotImportError(
                line: 3,
                problem: #"column 27, sections[0]: duplicate key "title"; a key may appear once in an object"#)
        ) {
            try SnapshotImporter.decode(line: Array(json.utf8), lineNumber: 3)
        }
    }
}
