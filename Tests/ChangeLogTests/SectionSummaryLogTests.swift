import Foundation
import ListAdapter
import ListFormat
import Testing

@testable import ChangeLog

/// Section summaries through the log: stored and read back exactly, their updates with them, in
/// version-2 records only where they occur; verification, replay, export and the typed API.
@Suite("ChangeLog: section summaries")
struct SectionSummaryLogTests {
    /// A snapshot from `(title, section summary, items)`; items as `snapshot(_:)` reads them.
    static func sectioned(_ sections: [(String, String?, [String])]) throws -> LogSnapshot {
        let plain = try snapshot(sections.map { ($0.0, $0.2) })
        return try LogSnapshot(
            sections: zip(plain.sections, sections).map { section, described in
                LogSnapshot.Section(title: section.title, summary: described.1, items: section.items)
            })
    }

    static func history() throws -> [LogSnapshot] {
        [
            try sectioned([("Today", nil, ["a:1", "b"]), ("Later", nil, ["c"])]),
            try sectioned([("Today", "1 unread", ["a:1", "b"]), ("Later", nil, ["c"])]),
            try sectioned([("Later", "new", ["c"]), ("Today", "2 unread", ["b", "a:2"]), ("Old", "x", ["d"])]),
            try sectioned([("Later", "new", ["c"]), ("Today", nil, ["b", "a:2"]), ("Old", "", ["d"])]),
            try sectioned([("Today", "", ["b", "a:2"]), ("Later", "new", ["c", "d"])]),
        ]
    }

    /// The record format version of each stored revision.
    static func versions(of log: ChangeLog) throws -> [UInt8] {
        try log.store.read(during: "reading") { transaction in
            try (1...log.latestRevision).map { try log.store.body(at: $0, in: transaction).version }
        }
    }

    @Test("snapshots and section updates read back exactly, and the log verifies")
    func roundTrip() async throws {
        let history = try Self.history()
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            try await appendAll(history, to: log)
            var previous = LogSnapshot()
            for (offset, snapshot) in history.enumerated() {
                let record = try log.record(at: UInt64(offset + 1))
                #expect(record.snapshot == snapshot)
                #expect(record.changes == previous.changes(to: snapshot))
                previous = snapshot
            }
            #expect(try log.record(at: 2).changes.updatedSections == [.init(from: 0, to: 0, summary: "1 unread")])
            #expect(
                try log.record(at: 3).changes.updatedSections == [
                    .init(from: 1, to: 0, summary: "new"), .init(from: 0, to: 1, summary: "2 unread"),
                ])
            #expect(try log.record(at: 3).changes.insertedSections.map(\.section.summary) == ["x"])
            #expect(
                try log.record(at: 4).changes.updatedSections == [
                    .init(from: 1, to: 1, summary: nil), .init(from: 2, to: 2, summary: ""),
                ])
            #expect(try log.record(at: 4).changes.counts.description == "sections +0 -0 ~0 *2  items +0 -0 ~0 *0")
            #expect(try await log.verify().isValid)
            // Version 1 until a section summary appears; reopened, the log reads the same.
            #expect(try Self.versions(of: log) == [1, 2, 2, 2, 2])
            let reopened = try ChangeLog(path: path + "/", options: .init(createIfMissing: false))
            #expect(try reopened.snapshot(at: 5) == history[4])
        }
    }

    @Test("a section whose summary changes gets a new section chunk; its items' chunks are kept")
    func chunksShared() throws {
        let first = try Self.sectioned([("A", "1", ["a", "b", "c", "d", "e", "f"])])
        let second = try Self.sectioned([("A", "2", ["a", "b", "c", "d", "e", "f"])])
        var planner = ChunkPlanner(nextID: 1)
        let stored = planner.store(first, reusing: .empty)
        let itemChunks = stored.sections[0].itemChunks.map(\.id)
        #expect(planner.newChunks.last.map { $0.value.first } == 3)
        var nextPlanner = ChunkPlanner(nextID: planner.nextID)
        let next = nextPlanner.store(second, reusing: stored)
        #expect(next.sections[0].itemChunks.map(\.id) == itemChunks)
        #expect(next.sections[0].chunk.id != stored.sections[0].chunk.id)
        // Only the section chunk (kind 4, with its summary) and its run are new.
        #expect(nextPlanner.newChunks.map(\.value.first) == [4, 3])
        let same = nextPlanner.store(second, reusing: next)
        #expect(same.sections[0].chunk.id == next.sections[0].chunk.id)
    }

    @Test("the export writes section summaries and updates, and imports back to the same snapshots")
    func exportAndImport() async throws {
        let history = try Self.history()
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path + "/a")
            try await appendAll(history, to: log)
            var lines: [String] = []
            for try await record in log.records(from: 1) {
                let line = record.jsonLine()
                #expect(try RevisionRecord(jsonLine: Array(line.utf8)) == record)
                lines.append(line)
            }
            #expect(lines[1].contains(#""updated":[{"from":0,"to":0,"summary":"1 unread"}]},"items""#))
            #expect(lines[0].contains(#""moved":[],"updated":[]},"items""#))
            let copy = try ChangeLog(path: path + "/b")
            for line in lines {
                let annotated = try InterchangeFormat.readImportLine(Array(line.utf8))
                _ = try await copy.append(annotated.snapshot, meta: annotated.meta)
            }
            for revision in 1...UInt64(history.count) {
                #expect(try copy.record(at: revision).changes == (try log.record(at: revision).changes))
            }
        }
    }

    @Test("the UIKit-strict renderer reloads a moved section's header after the batch; a bare view refuses it")
    func replay() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            try await appendAll(Self.history(), to: log)
            let moved = try log.record(at: 3).changes
            #expect(!moved.movedSections.isEmpty)
            #expect(moved.movedSections.allSatisfy { move in moved.updatedSections.contains { $0.from == move.from } })
            var renderer = UIKitStrictRenderer<String, String, String>()
            let report = try await log.replay(into: &renderer)
            #expect(report.refusal == nil && report.batchesApplied == 5)
            #expect(renderer.view.snapshot == (try log.snapshot(at: 5)))
            var bare = StrictListView<String, String, String>()
            let refused = try await log.replay(into: &bare)
            #expect(refused.refusal?.revision == 3)
            #expect(refused.refusal?.message.contains("the section is reloaded and moved") == true)
        }
    }

    @Test("verify names a section summary that the stored changes get wrong")
    func verifyFindsWrongSectionSummary() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            let first = try Self.sectioned([("Today", "1 unread", ["a"])])
            let second = try Self.sectioned([("Today", "2 unread", ["a"])])
            _ = try await log.append(first)
            let wrong = LogChanges(updatedSections: [.init(from: 0, to: 0, summary: "9 unread")])
            _ = try await log.append(second, changes: wrong, verifiesChanges: false)
            let report = try await log.verify()
            #expect(report.failure?.revision == 2)
            #expect(
                report.failure?.differences == [
                    #"section 0 "Today": section summary expected "2 unread" found "9 unread""#
                ])
        }
    }

    @Test("the typed API reads section summaries as their type; Never refuses a log that has them")
    func typed() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            let counted = try ListSnapshot<Int, String, Int>(sections: [
                .init(title: "Today", summary: 3, items: [.init(id: 1, summary: "x")]),
                .init(title: "Later", items: []),
            ])
            _ = try await log.append(counted)
            let record = try log.record(at: 1)
            #expect(record.snapshot.sections.map(\.summary) == ["3", nil])
            #expect(try record.snapshot(as: Int.self, summary: String.self, sectionSummary: Int.self) == counted)
            #expect(try log.snapshot(at: 1, as: Int.self, summary: String.self, sectionSummary: Int.self) == counted)
            #expect(
                try record.changes(as: Int.self, summary: String.self, sectionSummary: Int.self)
                    == ListSnapshot().changes(to: counted))
            let never = #expect(throws: ChangeLogError.self) {
                _ = try record.snapshot(as: Int.self, summary: String.self)
            }
            #expect(never?.code == .unconvertibleValue)
            #expect(never?.message.contains("section summary \"3\" (section 0)") == true)
        }
    }
}
