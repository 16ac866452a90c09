import Foundation
import ListAdapter
import Testing

@testable import ChangeLog

@Suite("Verification")
struct VerificationTests {
    @Test("appended random histories verify, in whole and in subranges", arguments: [1, 2, 3] as [UInt64])
    func appendedHistories(seed: UInt64) async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            let snapshots = RandomHistory.snapshots(seed: seed, count: 60)
            try await appendAll(snapshots, to: log)

            var progress: [UInt64] = []
            let report = try await log.verify { progress.append($0) }
            #expect(report.isValid, "\(report)")
            #expect(report.range == 1...60)
            #expect(report.revisionsChecked == 60)
            #expect(progress == Array(1...60))
            #expect(report.description == "revisions 1 to 60 verified")

            for range in [1...1, 17...17, 10...45, 59...60] as [ClosedRange<UInt64>] {
                let sub = try await log.verify(range)
                #expect(sub.isValid, "\(sub)")
                #expect(sub.range == range)
                #expect(sub.revisionsChecked == range.count)
            }
            #expect(try await log.verify(17...17).description == "revision 17 verified")
        }
    }

    @Test("an empty log verifies with nothing to check; ranges it does not hold throw")
    func emptyLogAndRanges() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            let empty = try await log.verify()
            #expect(empty.isValid)
            #expect(empty.range == nil)
            #expect(empty.revisionsChecked == 0)
            #expect(empty.description == "the log is empty: nothing to verify")
            let nothing = await #expect(throws: ChangeLogError.self) { _ = try await log.verify(1...1) }
            #expect(nothing?.code == .revisionNotFound)

            try await appendAll(RandomHistory.snapshots(seed: 4, count: 5), to: log)
            let zero = await #expect(throws: ChangeLogError.self) { _ = try await log.verify(0...3) }
            #expect(zero?.code == .invalidArgument)
            let beyond = await #expect(throws: ChangeLogError.self) { _ = try await log.verify(2...9) }
            #expect(beyond?.code == .revisionNotFound)
            #expect(beyond?.revision == 9)
            #expect(beyond?.message.contains("revisions 1 to 5") == true)
        }
    }

    @Test("after retention the remaining log verifies; its first revision is only read")
    func afterRetention() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            try await appendAll(RandomHistory.snapshots(seed: 5, count: 40), to: log)
            _ = try await log.dropRevisions(before: 15)

            let report = try await log.verify()
            #expect(report.isValid, "\(report)")
            #expect(report.range == 15...40)
            #expect(report.revisionsChecked == 26)
            #expect(try await log.verify(15...15).isValid)
            #expect(try await log.verify(16...30).revisionsChecked == 15)
            let dropped = await #expect(throws: ChangeLogError.self) { _ = try await log.verify(10...20) }
            #expect(dropped?.code == .revisionDropped)
            #expect(dropped?.revision == 10)
        }
    }

    @Test("a byte flipped in a stored record with LMDB's API is reported, naming that revision")
    func tamperedRecord() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            try await appendAll(RandomHistory.snapshots(seed: 6, count: 20), to: log)
            try tamperRecord(of: 9, in: log) { $0[$0.count / 2] ^= 0x04 }

            var progress: [UInt64] = []
            let report = try await log.verify { progress.append($0) }
            #expect(!report.isValid)
            let failure = try #require(report.failure)
            #expect(failure.revision == 9)
            #expect(failure.code == .unreadable)
            #expect(report.revisionsChecked == 8)
            #expect(progress == Array(1...8))
            #expect((failure.cause as? ChangeLogError)?.code == .checksumMismatch)
            #expect(
                failure.description.hasPrefix("revision 9 cannot be read: the record of revision 9 fails its checksum"))
            #expect(report.description == failure.description)

            // A range after the damage does not need revision 9; the range just after it does.
            #expect(try await log.verify(11...20).isValid)
            #expect(try await log.verify(10...20).failure?.revision == 9)
            #expect(try await log.verify(1...8).isValid)
        }
    }

    @Test("a damaged snapshot chunk is reported, naming the revision that reads it")
    func tamperedChunk() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            try await appendAll(RandomHistory.snapshots(seed: 7, count: 11), to: log)
            _ = try await log.append(try snapshot([("Z", ["z-1", "z-2"])]))
            // The newest chunk is written by the latest revision and read by no earlier one.
            let lastChunk = try log.store.read(during: "reading") { try log.store.nextChunkID(in: $0) - 1 }
            try log.store.environment.write { transaction in
                var bytes = try #require(try transaction.value(forKey: lastChunk.bigEndianKey, in: log.store.chunks))
                bytes[1] ^= 0x01
                try transaction.put(bytes, forKey: lastChunk.bigEndianKey, in: log.store.chunks)
            }
            let report = try await log.verify()
            #expect(report.failure?.revision == 12)
            #expect(report.failure?.code == .unreadable)
            #expect(report.failure?.description.contains("chunk \(lastChunk) fails its checksum") == true)
            #expect(report.revisionsChecked == 11)
        }
    }

    @Test("stored changes that do not give the stored snapshot are named, with what differs")
    func wrongChanges() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            _ = try await log.append(try snapshot([("Inbox", ["m-1"])]))
            let before = try snapshot([("Inbox", ["m-1"]), ("Today", ["m-10", "m-11", "m-12:hi"])])
            _ = try await log.append(before)
            let stored = try snapshot([
                ("Inbox", ["m-1"]), ("Today", ["m-10", "m-11", "m-12:hi", "m-13"]), ("Later", ["m-20"]),
            ])
            let elsewhere = try snapshot([("Inbox", ["m-1"]), ("Today", ["m-10", "m-11", "m-14"])])
            _ = try await log.append(stored, changes: before.changes(to: elsewhere), verifiesChanges: false)
            _ = try await log.append(try snapshot([("Inbox", ["m-1", "m-2"])]))

            let report = try await log.verify()
            let failure = try #require(report.failure)
            #expect(failure.revision == 3)
            #expect(failure.code == .snapshotMismatch)
            #expect(report.revisionsChecked == 2)
            #expect(
                failure.differences == [
                    #"section 1 "Today": item count expected 4 found 3"#,
                    #"section 1 "Today": item [1, 2] expected "m-12" (summary "hi") but found "m-14""#,
                    #"section 1 "Today": item [1, 3] expected "m-13" but found none"#,
                    #"section 2 expected "Later" (1 item) but found none"#,
                    "section count expected 3 found 2",
                ])
            #expect(
                failure.description.hasPrefix(
                    "revision 3: applying its changes to revision 2 does not give the stored snapshot: "
                        + #"section 1 "Today": item count expected 4 found 3; "#
                        + #"section 1 "Today": item [1, 2] expected "m-12" (summary "hi") but found "m-14"; "#))
            #expect(failure.description.hasSuffix("; section count expected 3 found 2"))
            // Verification from revision 4 on does not reach the bad revision's changes.
            #expect(try await log.verify(4...4).isValid)
        }
    }

    @Test("stored changes that break FORMAT.md's rules are named, with the broken rule")
    func invalidChanges() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            try await appendAll(RandomHistory.snapshots(seed: 8, count: 4), to: log)
            let previous = try snapshot([("A", ["a", "b"]), ("B", ["c:1", "d", "e"])])
            _ = try await log.append(previous)
            let next = try snapshot([("A", ["a", "b"]), ("B", ["c:1", "e"])])
            let broken = LogChanges(deletedItems: [ItemPath(section: 1, item: 9)])
            _ = try await log.append(next, changes: broken)

            let report = try await log.verify()
            let failure = try #require(report.failure)
            #expect(failure.revision == 6)
            #expect(failure.code == .invalidChanges)
            #expect(failure.differences == ["item deletion at [1, 9]: section 1 has 3 items"])
            #expect(
                failure.description
                    == "revision 6: its changes are not valid for revision 5: item deletion at [1, 9]: section 1 has 3 items"
            )
            #expect((failure.cause as? ListChangesError)?.code == .itemOutOfBounds)

            // An update whose item is another one after the changes: they do not apply.
            _ = try await log.append(
                previous,
                changes: LogChanges(
                    insertedItems: [.init(at: ItemPath(section: 1, item: 1), id: "d", summary: nil)],
                    updatedItems: [
                        .init(from: ItemPath(section: 1, item: 0), to: ItemPath(section: 1, item: 2), summary: "2")
                    ]))
            let mismatch = try await log.verify(7...7)
            #expect(mismatch.failure?.code == .invalidChanges)
            #expect(
                mismatch.failure?.description
                    == "revision 7: its changes are not valid for revision 6: item update from [1, 0] to [1, 2]: "
                    + #"the item at [1, 0] is "c", but the item at [1, 2] after the changes is "e""#)
        }
    }

    @Test("the first revision is checked against the empty snapshot")
    func firstRevision() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            let first = try snapshot([("A", ["a:1"])])
            _ = try await log.append(first, changes: LogChanges())
            let failure = try #require(try await log.verify().failure)
            #expect(failure.revision == 1)
            #expect(
                failure.description
                    == "revision 1: applying its changes to the empty snapshot does not give the stored snapshot: "
                    + #"section 0 expected "A" (1 item) but found none; section count expected 1 found 0"#)
        }
    }

    @Test("differences are listed by position, summaries and titles included, at most ten")
    func differenceWording() throws {
        let expected = try snapshot([("Today", ["a:1", "b", "c:3"]), ("Later", ["d"])])
        let found = try snapshot([("Now", ["a:2", "b:x", "c"]), ("Later", ["d"]), ("Extra", ["e", "f"])])
        let differences = SnapshotDifferences(expected: expected, found: found, limit: 10)
        #expect(
            differences.all == [
                #"section 0 expected "Today" but found "Now""#,
                #"section 0 "Today": item [0, 0] "a" expected summary "1" but found summary "2""#,
                #"section 0 "Today": item [0, 1] "b" expected no summary but found summary "x""#,
                #"section 0 "Today": item [0, 2] "c" expected summary "3" but found no summary"#,
                #"section 2 expected none but found "Extra" (2 items)"#,
                "section count expected 2 found 3",
            ])

        let many = try LogSnapshot(sections: [.init(title: "S", items: (0..<30).map { .init(id: "x\($0)") })])
        let shifted = try LogSnapshot(sections: [.init(title: "S", items: (0..<30).map { .init(id: "y\($0)") })])
        let limited = SnapshotDifferences(expected: many, found: shifted, limit: 10)
        #expect(limited.lines.count == 10)
        #expect(limited.omitted == 20)
        let failure = VerificationFailure(
            revision: 4, code: .snapshotMismatch, differences: limited.all, omittedDifferences: limited.omitted)
        #expect(failure.description.hasSuffix(#"item [0, 9] expected "x9" but found "y9"; and 20 more differences"#))
    }
}
