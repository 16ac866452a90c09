import ChangeLog
import Foundation
import ListAdapter
import Testing

@testable import ChangeLogTools

/// The importer decodes lines on every processor, in windows of lines and in runs of
/// consecutive lines that share strings with the line before (``ListFormat/InterchangeFormat/readImportLine(_:previous:)``). These tests
/// feed it more lines than a window holds, with bad and blank lines across the boundaries of
/// windows and runs, and hold it to what one line after the other would give.
@Suite("Snapshot importer: decoding many lines")
struct SnapshotImporterDecodingTests {
    /// The line numbers around the boundaries of runs and windows of 700 lines.
    static let boundaries: Set<Int> = {
        let run = SnapshotImporter.decodingRunLines
        let window = SnapshotImporter.decodingWindowLines
        return [1, run, run + 1, 2 * run, window - 1, window, window + 1, 2 * window + 1, 700]
    }()

    /// Line `number` of the churning input: 6 sections of items whose summaries change and
    /// whose ids come and go from line to line, with non-ASCII titles, ids and summaries.
    static func line(_ number: Int) -> String {
        let sections = (0..<6).map { section in
            let items = (0..<12).compactMap { slot -> String? in
                // Every 5th slot of a section is empty on every 3rd line: items come and go.
                guard (slot + section) % 5 != 0 || number % 3 != 0 else { return nil }
                let version = (number + slot) / 4
                return #"{"id":"\#(section)-\#(slot)-é","summary":"v\#(version)-ü"}"#
            }
            return #"{"title":"Séction \#(section)","items":[\#(items.joined(separator: ","))]}"#
        }
        return #"{"meta":{"line":"\#(number)"},"sections":[\#(sections.joined(separator: ","))]}"#
    }

    /// 700 lines; the ones numbered in `bad` are not JSON, those in `blank` are blank.
    static func input(bad: Set<Int>, blank: Set<Int> = []) -> Data {
        let lines = (1...700).map { number in
            bad.contains(number) ? #"{"sections": [}"# : blank.contains(number) ? "  " : line(number)
        }
        return Data(lines.joined(separator: "\n").utf8)
    }

    /// Checks that revision `revision` of `log` holds line `number` byte for byte.
    static func expectRevision(_ revision: UInt64, of log: ChangeLog, holdsLine number: Int) throws {
        let record = try log.record(at: revision)
        let expected = try SnapshotImporter.decode(line: Data(line(number).utf8), lineNumber: number)
        #expect(record.meta == ["line": "\(number)"])
        #expect(record.snapshot.formatJSON() == expected.snapshot.formatJSON(), "line \(number)")
        #expect(
            Array(record.snapshot.formatJSON().utf8) == Array(expected.snapshot.formatJSON().utf8), "line \(number)")
    }

    @Test("bad and blank lines across windows and runs: skipped in line order, the others appended in order")
    func skippedAcrossBoundaries() async throws {
        let bad = Self.boundaries.subtracting([700])
        let blank: Set<Int> = [2, 300, 699]
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            let importer = SnapshotImporter(log: log, options: .init(skipInvalid: true))
            let report = try await importer.run(input: Self.input(bad: bad, blank: blank))
            #expect(report.skipped.map(\.line) == bad.sorted())
            #expect(report.linesRead == 700)
            let good = (1...700).filter { !bad.contains($0) && !blank.contains($0) }
            #expect(report.revisions == Array(1...UInt64(good.count)))
            for (offset, number) in good.enumerated() {
                try Self.expectRevision(UInt64(offset + 1), of: log, holdsLine: number)
            }
            #expect(try await log.verify().isValid)
        }
    }

    @Test("without skipInvalid the first bad line in line order is named, whatever decoded first")
    func firstBadLine() async throws {
        for bad in [[257, 300], [33, 700], [700]] as [Set<Int>] {
            try await withTemporaryDirectory { path in
                let log = try ChangeLog(path: path)
                let error = await #expect(throws: SnapshotImportError.self) {
                    try await SnapshotImporter(log: log).run(input: Self.input(bad: bad))
                }
                #expect(error?.line == bad.min())
                #expect(try log.latestRevision == 0)
            }
        }
    }

    @Test("commitEvery with a small decoded budget: lines decoded again give the same revisions")
    func decodedAgain() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            var importer = SnapshotImporter(log: log, options: .init(commitEvery: 100))
            importer.decodedBytesLimit = 20_000
            let report = try await importer.run(input: Self.input(bad: []))
            #expect(report.revisions == Array(1...700))
            for number in Self.boundaries.union([150, 400, 650]) {
                try Self.expectRevision(UInt64(number), of: log, holdsLine: number)
            }
            #expect(try await log.verify().isValid)
        }
    }

    @Test("one decoding thread or several: the same outcomes, in line order", arguments: [1, 2, 3, 8])
    func processors(_ processors: Int) throws {
        let input = Self.input(bad: [5, 40, 300], blank: [6, 700])
        let lines = SnapshotImporter.lines(of: input)
        let outcomes = SnapshotImporter.decode(lines[...], of: input, processors: processors)
        #expect(outcomes.count == 700)
        for (offset, outcome) in outcomes.enumerated() {
            let number = offset + 1
            switch outcome {
            case nil:
                #expect([6, 700].contains(number), "line \(number) read as blank")
            case .failure(let error):
                #expect([5, 40, 300].contains(number) && error.line == number, "line \(number): \(error)")
            case .success(let entry):
                let expected = try SnapshotImporter.decode(line: Data(Self.line(number).utf8), lineNumber: number)
                #expect(
                    Array(entry.snapshot.formatJSON().utf8) == Array(expected.snapshot.formatJSON().utf8),
                    "line \(number)")
            }
        }
    }

    /// Sharing is what lets the writer recognise unchanged items by their bits: without it every
    /// test above still passes, only slower.
    @Test("a line shares the strings of the line before that hold the same bytes, and only those")
    func sharing() throws {
        let first =
            #"{"sections":[{"title":"A","items":[{"id":"a","summary":"a summary of 24 bytes..."},"#
            + #"{"id":"b","summary":"another summary of 28 bytes"}]}]}"#
        let second =
            #"{"sections":[{"title":"A","items":[{"id":"a","summary":"a summary of 24 bytes..."},"#
            + #"{"id":"b","summary":"a changed summary, 28 bytes"}]}]}"#
        let input = Data((first + "\n" + second).utf8)
        let lines = SnapshotImporter.lines(of: input)
        let outcomes = SnapshotImporter.decode(lines[...], of: input, processors: 1)
        guard case .success(let before)? = outcomes[0], case .success(let after)? = outcomes[1] else {
            Issue.record("both lines decode")
            return
        }
        let old = before.snapshot.sections[0].items
        let new = after.snapshot.sections[0].items
        // Summaries past 15 bytes live in storage of their own: the same bits, the same storage.
        #expect(Self.sameBits(old[0].summary!, new[0].summary!))
        #expect(!Self.sameBits(old[1].summary!, new[1].summary!))
        #expect(new[1].summary == "a changed summary, 28 bytes")
        // Decoded alone, the same line shares nothing.
        let alone = try SnapshotImporter.decode(line: Data(second.utf8), lineNumber: 2)
        #expect(!Self.sameBits(old[0].summary!, alone.snapshot.sections[0].items[0].summary!))
    }

    /// A line that spells a string as the line before does, but in another Unicode
    /// normalization, is equal by Swift's equality: sharing the line before's string would
    /// store the wrong bytes.
    @Test("strings equal to the line before's only by canonical equivalence keep their own bytes")
    func normalizationAcrossLines() async throws {
        let composed = "\u{C5}"  // Å
        let decomposed = "A\u{30A}"
        func line(_ spelling: String) -> String {
            #"{"sections":[{"title":"t\#(spelling)","items":[{"id":"a\#(spelling)","summary":"s\#(spelling)"},"#
                + #"{"id":"b","summary":"\#(spelling)"}]}]}"#
        }
        let spellings = [composed, decomposed, decomposed, composed, decomposed]
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            let input = Data(spellings.map(line).joined(separator: "\n").utf8)
            _ = try await SnapshotImporter(log: log).run(input: input)
            for (offset, spelling) in spellings.enumerated() {
                let snapshot = try log.snapshot(at: UInt64(offset + 1))
                #expect(Array(snapshot.formatJSON().utf8) == Array(line(spelling).utf8), "line \(offset + 1)")
            }
            #expect(try await log.verify().isValid)
        }
    }

    /// Whether two strings have the same representation: the same storage, for strings past
    /// 15 bytes.
    static func sameBits(_ lhs: String, _ rhs: String) -> Bool {
        unsafeBitCast(lhs, to: (UInt64, UInt64).self) == unsafeBitCast(rhs, to: (UInt64, UInt64).self)
    }
}
