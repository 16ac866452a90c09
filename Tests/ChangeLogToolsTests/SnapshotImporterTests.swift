import ChangeLog
import Foundation
import ListAdapter
import Synchronization
import Testing

@testable import ChangeLogTools

@Suite("Snapshot importer")
struct SnapshotImporterTests {
    /// Five snapshot lines: one section whose items grow by one per line.
    static let fiveLines = (1...5).map { count in
        #"{"sections": [{"title": "A", "items": ["#
            + (0..<count).map { #"{"id": "i\#($0)"}"# }.joined(separator: ", ") + "]}]}"
    }

    @Test("a bad line appends nothing, with or without commitEvery: every line is checked first")
    func badLineAppendsNothing() async throws {
        for commitEvery in [nil, 1, 2] as [Int?] {
            try await withTemporaryDirectory { path in
                let log = try ChangeLog(path: path)
                let input = Data((Self.fiveLines + [#"{"sections": [{"title": 1}]}"#]).joined(separator: "\n").utf8)
                let importer = SnapshotImporter(log: log, options: .init(commitEvery: commitEvery))
                let expected = SnapshotImportError(
                    line: 6, problem: "column 25, sections[0].title: expected a string, found 1")
                await #expect(throws: expected) {
                    try await importer.run(input: input)
                }
                #expect(try log.latestRevision == 0)
                #expect(log.writeTransactionCount == 0)
            }
        }
    }

    /// With other writers appending between an import's transactions, its revisions are not one
    /// range: `revisions 706 to 1500 (300)` would read as if it had appended all of them.
    @Test("the revisions appended are said as a range only when they are one")
    func revisionsSummary() {
        func report(_ revisions: [UInt64]) -> SnapshotImporter.Report {
            SnapshotImporter.Report(revisions: revisions, skipped: [], linesRead: revisions.count)
        }
        #expect(report([]).revisionsSummary == nil)
        #expect(report([7]).revisionsSummary == "revisions 7 to 7 (1)")
        #expect(report(Array(1...1000)).revisionsSummary == "revisions 1 to 1000 (1000)")
        #expect(
            report([706, 707, 900, 1500]).revisionsSummary
                == "4 revisions from 706 to 1500 (other writers appended between them)")
        let failure = SnapshotAppendError(
            report: report([3, 5]), firstLineNotAppended: 3,
            cause: ChangeLogError(code: .conflict, message: "m", path: "p"))
        #expect(failure.appendedSummary == "2 revisions from 3 to 5 (other writers appended between them)")
        #expect(
            SnapshotImportInterrupted(report: report([3, 5]), firstLineNotAppended: 3).description
                == "interrupted before line 3; appended before it: 2 revisions from 3 to 5 (other writers appended "
                + "between them)")
    }

    @Test("commitEvery appends in one transaction per N lines; without it, in one")
    func transactions() async throws {
        for (commitEvery, transactions) in [(nil, 1), (1, 5), (2, 3), (5, 1), (100, 1)] as [(Int?, Int)] {
            try await withTemporaryDirectory { path in
                let log = try ChangeLog(path: path)
                let input = Data(Self.fiveLines.joined(separator: "\n\n").utf8)
                let report = try await SnapshotImporter(log: log, options: .init(commitEvery: commitEvery)).run(
                    input: input)
                #expect(report.revisions == Array(1...5))
                #expect(report.linesRead == 9)
                #expect(log.writeTransactionCount == transactions, "commitEvery \(String(describing: commitEvery))")
                #expect(try await log.verify().isValid)
            }
        }
    }

    @Test("a stop request ends the import before the next transaction, or appends nothing while checking")
    func stopRequested() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            let importer = SnapshotImporter(log: log, options: .init(commitEvery: 2))
            let input = Data(Self.fiveLines.joined(separator: "\n\n").utf8)
            let error = await #expect(throws: SnapshotImportInterrupted.self) {
                try await importer.run(input: input) { _ in
                } stopRequested: {
                    (try? log.latestRevision) == 2
                }
            }
            #expect(error?.report.revisions == [1, 2])
            #expect(error?.firstLineNotAppended == 5)
            #expect(try log.latestRevision == 2)
        }
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            let asked = Atomic(0)
            let importer = SnapshotImporter(log: log, options: .init(commitEvery: 2))
            let error = await #expect(throws: SnapshotImportInterrupted.self) {
                try await importer.run(input: Data(Self.fiveLines.joined(separator: "\n").utf8)) { _ in
                } stopRequested: {
                    asked.add(1, ordering: .relaxed).newValue == 3
                }
            }
            #expect(error?.firstLineNotAppended == nil)
            #expect(error?.report.linesRead == 3)
            #expect(error?.report.revisions == [])
            #expect(try log.latestRevision == 0)
        }
    }

    @Test(
        "a stop request while a transaction is prepared abandons it: the lines before it stay, none of it is appended",
        arguments: [nil, 2])
    func stopWhilePreparing(commitEvery: Int?) async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            // Asked once per line while checking (5 lines), before each transaction, and per line
            // while a transaction is prepared. The request comes while line 3 is prepared: in the
            // second transaction of two lines each, in the first of one transaction.
            let stopAt = commitEvery == nil ? 5 + 1 + 3 : 5 + (1 + 2) + (1 + 1)
            let asked = Atomic(0)
            let importer = SnapshotImporter(log: log, options: .init(commitEvery: commitEvery))
            let error = await #expect(throws: SnapshotImportInterrupted.self) {
                try await importer.run(input: Data(Self.fiveLines.joined(separator: "\n").utf8)) { _ in
                } stopRequested: {
                    asked.add(1, ordering: .relaxed).newValue >= stopAt
                }
            }
            #expect(asked.load(ordering: .relaxed) == stopAt, "asked once more after the request")
            let kept: [UInt64] = commitEvery == nil ? [] : [1, 2]
            #expect(error?.report.revisions == kept)
            #expect(error?.firstLineNotAppended == (commitEvery == nil ? 1 : 3))
            #expect(try log.latestRevision == UInt64(kept.count))
            #expect(try await log.verify().isValid)
        }
    }

    @Test("with commitEvery, lines past the decoded budget are decoded again: same revisions, bad lines append nothing")
    func decodedBudget() async throws {
        let lines = Self.fiveLines + [#"{"meta": {"n": "6"}, "sections": [{"title": "B", "items": []}]}"#]
        let expected = try lines.map { try SnapshotImporter.decode(line: Data($0.utf8), lineNumber: 0) }
        // Budgets that keep no line, some lines and every line decoded.
        for limit in [0, 150, 1 << 20] {
            for commitEvery in [1, 2, 4] {
                try await withTemporaryDirectory { path in
                    let log = try ChangeLog(path: path)
                    var importer = SnapshotImporter(log: log, options: .init(commitEvery: commitEvery))
                    importer.decodedBytesLimit = limit
                    let input = Data(("\n" + lines.joined(separator: "\n\n") + "\n").utf8)
                    let report = try await importer.run(input: input)
                    #expect(report.revisions == Array(1...6))
                    #expect(report.linesRead == 12)
                    #expect(log.writeTransactionCount == (6 + commitEvery - 1) / commitEvery)
                    for (offset, annotated) in expected.enumerated() {
                        let record = try log.record(at: UInt64(offset + 1))
                        #expect(record.snapshot == annotated.snapshot && record.meta == annotated.meta)
                    }
                    #expect(try await log.verify().isValid)
                }
                try await withTemporaryDirectory { path in
                    let log = try ChangeLog(path: path)
                    var importer = SnapshotImporter(log: log, options: .init(commitEvery: commitEvery))
                    importer.decodedBytesLimit = limit
                    let input = Data((lines + ["{"]).joined(separator: "\n").utf8)
                    await #expect(throws: SnapshotImportError.self) { try await importer.run(input: input) }
                    #expect(try log.latestRevision == 0)
                }
            }
        }
    }

    @Test("a meta key that reads as a number is named as a key, not as an array index")
    func numericMetaKeyInPath() throws {
        for (key, named, column) in [("-0", "meta.-0", 17), ("3", "meta.3", 16), ("+3", "meta.+3", 17)] {
            let line = Data(#"{"meta": {"\#(key)": 1}, "sections": []}"#.utf8)
            let error = #expect(throws: SnapshotImportError.self) {
                try SnapshotImporter.decode(line: line, lineNumber: 1)
            }
            #expect(error?.problem == "column \(column), \(named): expected a string, found 1")
        }
        let line = Data(#"{"sections": [{"title": "A", "items": []}, {"title": 2, "items": []}]}"#.utf8)
        let error = #expect(throws: SnapshotImportError.self) { try SnapshotImporter.decode(line: line, lineNumber: 1) }
        #expect(error?.problem == "column 54, sections[1].title: expected a string, found 2")
    }

    /// A meta key of 4 MB, as a message names it: its first 60 characters and its length.
    static let hugeKey = String(repeating: "k", count: 4_000_000)
    static let hugeKeyShown = "\"" + String(repeating: "k", count: 60) + "\"... (4000000 bytes)"

    /// Lines that are refused for what they hold under a multi-megabyte meta key, and the
    /// problem each one names.
    static let hugeMetaKeyLines: [(String, String)] = [
        (
            #"{"sections": [], "meta": {"\#(hugeKey)": "a", "\#(hugeKey)": "b"}}"#,
            "column 4000036, meta: duplicate key \(hugeKeyShown); a key may appear once in an object"
        ),
        (
            #"{"meta": {"\#(hugeKey)": 5}, "sections": []}"#,
            "column 4000015, meta.\(hugeKeyShown): expected a string, found 5"
        ),
        (
            #"{"meta": {"\#(hugeKey)": null}, "sections": []}"#,
            "column 4000015, meta.\(hugeKeyShown): expected a string, found null"
        ),
        (
            #"{"meta": {"\#(hugeKey)": []}, "snapshot": {"sections": []}}"#,
            "column 4000015, meta.\(hugeKeyShown): expected a string, found []"
        ),
    ]

    /// A message quotes an excerpt of the key, not the whole: a duplicate meta key of 4 MB would
    /// otherwise make 4 MB of error message.
    @Test("a multi-megabyte meta key is cut in the messages that name it, which still name the problem")
    func hugeMetaKey() throws {
        for (line, problem) in Self.hugeMetaKeyLines {
            let error = #expect(throws: SnapshotImportError.self) {
                try SnapshotImporter.decode(line: Data(line.utf8), lineNumber: 3)
            }
            let message = error?.description ?? ""
            // Compared only once short: a failure must not print megabytes.
            #expect(message.utf8.count < 300, "\(message.utf8.count) bytes: \(message.prefix(200))")
            if message.utf8.count < 300 { #expect(message == "line 3, \(problem)") }
        }
    }
}
