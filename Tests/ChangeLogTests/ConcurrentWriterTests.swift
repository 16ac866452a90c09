import Foundation
import ListAdapter
import Testing

@testable import ChangeLog

/// Group commit with a cached latest revision: these tests make the cache wrong on purpose (a
/// second writer of the same path, a drop, conflicts) and check that nothing is lost or misplaced.
@Suite("Concurrent writers")
struct ConcurrentWriterTests {
    /// A small snapshot whose content depends on `tag`.
    static func snapshot(_ tag: Int) throws -> LogSnapshot {
        try LogSnapshot(sections: [
            .init(title: "S\(tag % 3)", items: (0..<5).map { .init(id: "item-\(tag)-\($0)", summary: "v\(tag)") }),
            .init(title: "Common", items: [.init(id: "common-\(tag % 7)")]),
        ])
    }

    @Test("appends racing with the same expectedLatest: exactly one wins, the others conflict")
    func expectedLatestRace() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            for round in 0..<10 {
                let latest = try log.latestRevision
                let outcomes = await withTaskGroup(of: (Int, Result<UInt64, ChangeLogError>).self) { group in
                    for task in 0..<8 {
                        group.addTask {
                            do throws(ChangeLogError) {
                                let snapshot = try! Self.snapshot(round * 8 + task)
                                return (task, .success(try await log.append(snapshot, expectedLatest: latest).revision))
                            } catch {
                                return (task, .failure(error))
                            }
                        }
                    }
                    return await group.reduce(into: []) { $0.append($1) }
                }
                let winners = outcomes.filter { (try? $0.1.get()) != nil }
                #expect(winners.map { try? $0.1.get() } == [latest + 1], "round \(round): \(outcomes)")
                for case (_, .failure(let error)) in outcomes {
                    #expect(error.code == .conflict, "\(error)")
                }
                if let winner = winners.first {
                    #expect(try log.snapshot(at: latest + 1) == Self.snapshot(round * 8 + winner.0))
                }
            }
            try await expectEachRevisionDiffsItsPredecessor(log)
        }
    }

    @Test("two writers of one path, each with concurrent appenders, interleave without a gap")
    func twoWritersOnePath() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/log"
            let first = try ChangeLog(path: path)
            let second = try ChangeLog(path: path)
            let perAppender = 25
            try await withThrowingTaskGroup(of: Void.self) { group in
                for appender in 0..<8 {
                    let log = appender % 2 == 0 ? first : second
                    group.addTask {
                        for step in 0..<perAppender {
                            _ = try await log.append(
                                try Self.snapshot(appender * 1_000 + step), meta: ["a": "\(appender)"])
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try first.latestRevision == UInt64(8 * perAppender))
            let report = try await first.verify()
            #expect(report.isValid, "\(report)")
            #expect(report.revisionsChecked == 8 * perAppender)
            #expect(first.writeTransactionCount + second.writeTransactionCount <= 8 * perAppender)
        }
    }

    @Test("appends racing a drop and expectedLatest conflicts keep their order and outcomes")
    func dropsAndConflicts() async throws {
        try await withTemporaryDirectory { directory in
            let log = try ChangeLog(path: directory + "/log")
            for step in 0..<10 { _ = try await log.append(try Self.snapshot(step)) }
            let conflicts = Counter()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for appender in 0..<4 {
                    group.addTask {
                        for step in 0..<20 {
                            do {
                                let latest = try log.latestRevision
                                _ = try await log.append(
                                    try Self.snapshot(appender * 100 + step), expectedLatest: latest)
                            } catch let error as ChangeLogError where error.code == .conflict {
                                conflicts.increment()
                            }
                        }
                    }
                }
                group.addTask { _ = try await log.dropRevisions(before: 5) }
                try await group.waitForAll()
            }
            let latest = try log.latestRevision
            #expect(latest == UInt64(10 + 80 - conflicts.value))
            #expect(try log.firstRevision == 5)
            let report = try await log.verify()
            #expect(report.isValid, "\(report)")
        }
    }

    @Test("changes a caller computed in advance are used only when its entry follows their base")
    func changesInAdvanceFollowTheLog() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/log"
            let first = try ChangeLog(path: path)
            let second = try ChangeLog(path: path)
            let a = try Self.snapshot(1)
            let b = try Self.snapshot(2)
            let c = try Self.snapshot(4)
            _ = try await first.append(a)
            // The first writer expects its next entry to follow `a`; the second appends `b` first.
            _ = try await second.append(b)
            let appended = try await first.append(c)
            #expect(appended.revision == 3)
            #expect(appended.changes == b.changes(to: c))
            #expect(appended.changes != a.changes(to: c))
            #expect(try first.record(at: 3).changes == b.changes(to: c))
            // A conflict leaves the log where it was, and the next entry follows the log.
            await #expect(throws: ChangeLogError.self) { _ = try await first.append(a, expectedLatest: 1) }
            #expect(try await first.append(a).changes == c.changes(to: a))
        }
    }

    @Test("appends queued behind conflicting ones store the changes from the snapshot they follow")
    func conflictsInsideGroups() async throws {
        try await withTemporaryDirectory { directory in
            let log = try ChangeLog(path: directory + "/log")
            _ = try await log.append(try Self.snapshot(0))
            let conflicts = Counter()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for appender in 0..<8 {
                    group.addTask {
                        for step in 0..<15 {
                            // Every other append of half the appenders expects a revision long gone.
                            if appender % 2 == 0, step % 2 == 0 {
                                do {
                                    _ = try await log.append(
                                        try Self.snapshot(appender * 100 + step), expectedLatest: 1)
                                } catch let error as ChangeLogError where error.code == .conflict {
                                    conflicts.increment()
                                }
                            } else {
                                _ = try await log.append(try Self.snapshot(appender * 100 + step))
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(conflicts.value >= 31)
            try await expectEachRevisionDiffsItsPredecessor(log)
        }
    }

    @Test("a large batch, diffed by its caller while the writer cuts chunks, stores each entry's own changes")
    func largeBatchChangesInAdvance() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/log"
            let first = try ChangeLog(path: path)
            let second = try ChangeLog(path: path)
            _ = try await first.append(try Self.snapshot(0))
            // The first instance's tail is now revision 1's snapshot; the second appends after it,
            // so the batch's first entry follows a snapshot the first instance did not predict.
            _ = try await second.append(try Self.snapshot(1))
            var entries: [ChangeLog.AppendEntry] = []
            for step in 2..<302 {
                let snapshot = try Self.snapshot(step)
                if step % 50 == 0, let previous = entries.last?.snapshot {
                    entries.append(.init(snapshot, changes: previous.changes(to: snapshot), verifiesChanges: true))
                } else {
                    entries.append(.init(snapshot))
                }
            }
            let appended = try await first.append(contentsOf: entries)
            #expect(appended.map(\.revision) == Array(3...302))
            var previous = try first.snapshot(at: 2)
            for (offset, revision) in appended.enumerated() {
                #expect(
                    revision.changes == previous.changes(to: entries[offset].snapshot), "revision \(revision.revision)")
                previous = entries[offset].snapshot
            }
            let report = try await first.verify()
            #expect(report.isValid, "\(report)")
        }
    }

    /// A caller goes on with its task only once its own diffs return, so it must not go on
    /// diffing entries the writer has already stored.
    @Test("a caller stops diffing its entries once the writer abandons them")
    func abandonedChangesInAdvance() throws {
        let snapshots = try (0..<4).map { try Self.snapshot($0) }
        let entries = snapshots.dropFirst().map { ChangeLog.AppendEntry($0) }
        let computed = ChangesInAdvance(entries: entries, tail: snapshots[0])
        computed.compute()
        for index in 0..<3 {
            #expect(
                computed.changes(at: index, from: snapshots[index])
                    == snapshots[index].changes(to: snapshots[index + 1]))
        }
        let abandoned = ChangesInAdvance(entries: entries, tail: snapshots[0])
        abandoned.abandon()
        abandoned.compute()
        for index in 0..<3 {
            #expect(abandoned.changes(at: index, from: snapshots[index]) == nil)
        }
    }

    @Test("appends queued behind a long batch and behind failing appends use no changes from a wrong base")
    func changesInAdvanceBehindFailures() async throws {
        try await withTemporaryDirectory { directory in
            let log = try ChangeLog(path: directory + "/log")
            _ = try await log.append(try Self.snapshot(0))
            // Large snapshots keep the writer busy with the batch, so the callers queued behind
            // it have their changes ready, computed from tails that failing requests make wrong.
            let large = try (1...40).map { step in
                try LogSnapshot(
                    sections: (0..<20).map { section in
                        .init(
                            title: "L\(section)",
                            items: (0..<100).map {
                                .init(id: "l-\(section)-\($0)", summary: "v\(step)-\($0 % (step + 1))")
                            })
                    })
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { _ = try await log.append(contentsOf: large.map { ChangeLog.AppendEntry($0) }) }
                for appender in 0..<6 {
                    group.addTask {
                        for step in 0..<8 {
                            let snapshot = try Self.snapshot(1_000 + appender * 100 + step)
                            if step % 2 == 0 {
                                // Expects a revision long gone: fails, after moving the tail.
                                _ = try? await log.append(snapshot, expectedLatest: 0)
                            } else {
                                _ = try await log.append(snapshot)
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            try await expectEachRevisionDiffsItsPredecessor(log)
        }
    }
}
