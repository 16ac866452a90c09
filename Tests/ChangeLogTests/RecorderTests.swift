import Foundation
import ListAdapter
import Synchronization
import Testing

@testable import ChangeLog

/// A data source whose list is a snapshot the test sets. It answers consistently, as
/// `ListDataSource` asks: titles and summaries come from the state the last `identifiers()`
/// call served. With `reloads`, an updated item whose identifier ends in an even digit asks
/// for a reload, every other update for a reconfigure.
private final class SettableDataSource: ListDataSource {
    typealias ItemID = String
    typealias Summary = String
    typealias SectionSummary = String
    typealias Item = String

    let reloads: Bool

    init(reloads: Bool = false) {
        self.reloads = reloads
    }

    nonisolated func updateKind(of id: String, from oldSummary: String?, to newSummary: String?) -> ItemUpdateKind {
        guard reloads, let last = id.unicodeScalars.last, ("0"..."9").contains(last) else { return .reconfigure }
        return last.value % 2 == 0 ? .reload : .reconfigure
    }

    private struct State {
        var current = LogSnapshot()
        var served = LogSnapshot()
    }

    private let state = Mutex(State())

    func set(_ snapshot: LogSnapshot) {
        state.withLock { $0.current = snapshot }
    }

    func identifiers() async throws -> [String] {
        state.withLock { state in
            state.served = state.current
            return state.current.identifiers
        }
    }

    func sectionTitle(for id: String) -> String? {
        state.withLock { state in
            state.served.path(of: id).flatMap { state.served.title(ofSection: $0.section) }
        }
    }

    func summary(for id: String) -> String? {
        state.withLock { state in
            state.served.path(of: id).flatMap { state.served.item(at: $0)?.summary }
        }
    }

    func sectionSummary(forTitle title: String) -> String? {
        state.withLock { state in
            state.served.sectionOffset(titled: title).flatMap { state.served.sections[$0].summary }
        }
    }

    func item(for id: String) async throws -> String { id }
}

/// Collects every update an adapter delivers.
@MainActor
private final class UpdateCollector: ListAdapterObserver {
    typealias DataSource = SettableDataSource
    var updates: [ListAdapterUpdate<String, String, String>] = []

    func listAdapter(
        _ adapter: ListAdapter<SettableDataSource>, didUpdate update: ListAdapterUpdate<String, String, String>
    ) {
        updates.append(update)
    }
}

/// A temporary log directory, removed when the value is released.
final class TemporaryLog {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("ChangeLogTests-\(UUID().uuidString)").path

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}

@MainActor
@Suite("Recorder")
struct RecorderTests {
    /// Feeds `count` seeded snapshots to `dataSource`, invalidating `adapter` after each one and
    /// sometimes letting the adapter deliver before the next, so that some invalidations are
    /// coalesced and others not.
    private func drive(
        _ adapter: ListAdapter<SettableDataSource>, _ dataSource: SettableDataSource, seed: UInt64, count: Int
    ) async {
        var generator = SeededGenerator(seed: seed &+ 1000)
        for snapshot in RandomHistory.snapshots(seed: seed, count: count) {
            dataSource.set(snapshot)
            adapter.invalidate()
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: await adapter.waitUntilIdle()
            case 1: await Task.yield()
            default: break
            }
        }
        await adapter.waitUntilIdle()
    }

    /// Checks that the log's revisions after `offset` are the delivered updates, one each, in
    /// order, with the adapter's changes (but for the first one when the log had revisions before).
    private func expectRecorded(
        _ updates: [ListAdapterUpdate<String, String, String>], in log: ChangeLog, after offset: UInt64
    ) throws {
        #expect(try log.latestRevision == offset + UInt64(updates.count))
        for (index, update) in updates.enumerated() {
            let record = try log.record(at: offset + UInt64(index) + 1)
            #expect(record.snapshot == update.newSnapshot)
            #expect(record.meta["generation"] == String(update.generation))
            if index > 0 || offset == 0 {
                #expect(record.changes == update.changes, "revision \(record.revision)")
            }
        }
    }

    @Test("200 seeded invalidations: one revision per delivered update, in order, with the adapter's changes")
    func recordsEveryUpdate() async throws {
        let directory = TemporaryLog()
        let log = try ChangeLog(path: directory.path)
        let dataSource = SettableDataSource()
        let adapter = ListAdapter(dataSource: dataSource)
        let collector = UpdateCollector()
        adapter.addObserver(collector)
        let recorder = ChangeLogRecorder(adapter: adapter, log: log) { ["generation": String($0.generation)] }
        var recordings: [ChangeLogRecorder<SettableDataSource>.Recording] = []
        recorder.onRecord = { recordings.append($0) }

        await drive(adapter, dataSource, seed: 21, count: 200)
        try await recorder.waitUntilRecorded()

        let updates = collector.updates
        #expect(updates.count > 20)
        #expect(recorder.recordedCount == updates.count)
        #expect(recorder.pendingCount == 0)
        #expect(recorder.failedCount == 0)
        #expect(recorder.lastError == nil)
        #expect(recordings.map(\.generation) == updates.map(\.generation))
        #expect(recordings.map(\.revision) == Array(1...UInt64(updates.count)))
        #expect(recordings.filter { !$0.storesAdapterChanges }.isEmpty)
        #expect(recorder.lastRecording == recordings.last)
        try expectRecorded(updates, in: log, after: 0)
        let report = try await log.verify()
        #expect(report.isValid, "\(report)")
        #expect(report.revisionsChecked == updates.count)
    }

    @Test("section summaries a data source states are recorded, with their updates, and the log verifies")
    func recordsSectionSummaries() async throws {
        let directory = TemporaryLog()
        let log = try ChangeLog(path: directory.path)
        let dataSource = SettableDataSource()
        let adapter = ListAdapter(dataSource: dataSource)
        let collector = UpdateCollector()
        adapter.addObserver(collector)
        let recorder = ChangeLogRecorder(adapter: adapter, log: log) { ["generation": String($0.generation)] }
        for snapshot in RandomHistory.snapshots(seed: 24, count: 60) {
            // A header that counts its items, shown for odd counts only: it changes, appears and goes.
            let sections = snapshot.sections.map { section in
                LogSnapshot.Section(
                    title: section.title, summary: section.items.count % 2 == 1 ? "\(section.items.count)" : nil,
                    items: section.items)
            }
            dataSource.set(try LogSnapshot(sections: sections))
            await adapter.invalidateAndWait()
        }
        try await recorder.waitUntilRecorded()
        let updates = collector.updates
        #expect(updates.contains { !$0.changes.updatedSections.isEmpty })
        try expectRecorded(updates, in: log, after: 0)
        #expect(try await log.verify().isValid)
    }

    @Test("reloads a data source asks for are recorded: version-2 records with kinds, read back as delivered")
    func recordsReloads() async throws {
        let directory = TemporaryLog()
        let log = try ChangeLog(path: directory.path)
        let dataSource = SettableDataSource(reloads: true)
        let adapter = ListAdapter(dataSource: dataSource)
        let collector = UpdateCollector()
        adapter.addObserver(collector)
        let recorder = ChangeLogRecorder(adapter: adapter, log: log) { ["generation": String($0.generation)] }
        for snapshot in RandomHistory.snapshots(seed: 31, count: 60) {
            dataSource.set(snapshot)
            await adapter.invalidateAndWait()
        }
        try await recorder.waitUntilRecorded()
        let updates = collector.updates
        let withReloads = updates.filter { $0.changes.updatedItems.contains { $0.kind == .reload } }
        #expect(!withReloads.isEmpty)
        try expectRecorded(updates, in: log, after: 0)
        // A revision with a reload is a version-2 record; one without any section summary or
        // reload stays version 1.
        let versions = try SectionSummaryLogTests.versions(of: log)
        for (update, version) in zip(updates, versions) {
            let hasReload = update.changes.updatedItems.contains { $0.kind == .reload }
            let hasSectionSummaries =
                update.newSnapshot.sections.contains { $0.summary != nil } || !update.changes.updatedSections.isEmpty
            #expect(version == (hasReload || hasSectionSummaries ? 2 : 1), "generation \(update.generation)")
        }
        #expect(try await log.verify().isValid)
    }

    @Test("a log that already has revisions: the first update is appended with changes the log computes")
    func logWithRevisions() async throws {
        let directory = TemporaryLog()
        let log = try ChangeLog(path: directory.path)
        let earlier = RandomHistory.snapshots(seed: 22, count: 3)
        try await appendAll(earlier, to: log)

        let dataSource = SettableDataSource()
        let adapter = ListAdapter(dataSource: dataSource)
        let collector = UpdateCollector()
        adapter.addObserver(collector)
        let recorder = ChangeLogRecorder(adapter: adapter, log: log) { ["generation": String($0.generation)] }
        var recordings: [ChangeLogRecorder<SettableDataSource>.Recording] = []
        recorder.onRecord = { recordings.append($0) }

        await drive(adapter, dataSource, seed: 23, count: 200)
        try await recorder.waitUntilRecorded()

        let updates = collector.updates
        #expect(updates.first?.oldSnapshot.isEmpty == true)
        #expect(recordings.count == updates.count)
        #expect(recordings.first?.storesAdapterChanges == false)
        #expect(recordings.dropFirst().filter { !$0.storesAdapterChanges }.isEmpty)
        #expect(recordings.first?.revision == 4)
        try expectRecorded(updates, in: log, after: 3)
        let first = try log.record(at: 4)
        #expect(first.changes == earlier[2].changes(to: updates[0].newSnapshot))
        #expect(first.changes != updates[0].changes)
        let report = try await log.verify()
        #expect(report.isValid, "\(report)")
        #expect(report.revisionsChecked == 3 + updates.count)
    }

    @Test("annotations: the meta closure for every update, nextMeta for the next one only")
    func annotations() async throws {
        let directory = TemporaryLog()
        let log = try ChangeLog(path: directory.path)
        let dataSource = SettableDataSource()
        let adapter = ListAdapter(dataSource: dataSource)
        let recorder = ChangeLogRecorder(adapter: adapter, log: log) { update in
            ["generation": String(update.generation), "reason": "refresh"]
        }
        dataSource.set(try snapshot([("A", ["a"])]))
        recorder.nextMeta = ["reason": "first load", "request": "r-1"]
        await adapter.invalidateAndWait()
        dataSource.set(try snapshot([("A", ["a", "b"])]))
        await adapter.invalidateAndWait()
        try await recorder.waitUntilRecorded()

        #expect(try log.record(at: 1).meta == ["generation": "1", "reason": "first load", "request": "r-1"])
        #expect(try log.record(at: 2).meta == ["generation": "2", "reason": "refresh"])
    }

    @Test("another writer appending in between: the recorder falls back to changes the log computes")
    func anotherWriter() async throws {
        let directory = TemporaryLog()
        let log = try ChangeLog(path: directory.path)
        let dataSource = SettableDataSource()
        let adapter = ListAdapter(dataSource: dataSource)
        let recorder = ChangeLogRecorder(adapter: adapter, log: log)
        var recordings: [ChangeLogRecorder<SettableDataSource>.Recording] = []
        recorder.onRecord = { recordings.append($0) }

        let snapshots = RandomHistory.snapshots(seed: 24, count: 6)
        for (index, next) in snapshots.enumerated() {
            dataSource.set(next)
            await adapter.invalidateAndWait()
            try await recorder.waitUntilRecorded()
            if index == 2 {
                _ = try await log.append(try snapshot([("Other", ["x"])]))
            }
        }
        #expect(recordings.map(\.revision) == [1, 2, 3, 5, 6, 7])
        #expect(recordings.map(\.storesAdapterChanges) == [true, true, true, false, true, true])
        #expect(try await log.verify().isValid)
    }

    @Test("after stop, updates are no longer recorded; those queued before still are")
    func stop() async throws {
        let directory = TemporaryLog()
        let log = try ChangeLog(path: directory.path)
        let dataSource = SettableDataSource()
        let adapter = ListAdapter(dataSource: dataSource)
        let recorder = ChangeLogRecorder(adapter: adapter, log: log)
        dataSource.set(try snapshot([("A", ["a"])]))
        await adapter.invalidateAndWait()
        recorder.stop()
        #expect(!recorder.isRecording)
        dataSource.set(try snapshot([("A", ["a", "b"])]))
        await adapter.invalidateAndWait()
        try await recorder.waitUntilRecorded()
        #expect(recorder.recordedCount == 1)
        #expect(try log.latestRevision == 1)
        #expect(adapter.observerCount == 0)
    }
}

extension RecorderTests {
    @Test("a failed append is reported once by waitUntilRecorded and kept in lastError")
    func failedAppend() async throws {
        let directory = TemporaryLog()
        let log = try ChangeLog(path: directory.path)
        try await appendAll(RandomHistory.snapshots(seed: 25, count: 2), to: log)
        try tamperRecord(of: 2, in: log) { $0[$0.count - 1] ^= 0x01 }
        let dataSource = SettableDataSource()
        let adapter = ListAdapter(dataSource: dataSource)
        let recorder = ChangeLogRecorder(adapter: adapter, log: log)
        dataSource.set(try snapshot([("A", ["a"])]))
        await adapter.invalidateAndWait()

        let error = await #expect(throws: ChangeLogError.self) { try await recorder.waitUntilRecorded() }
        #expect(error?.code == .checksumMismatch)
        #expect(error?.revision == 2)
        #expect(recorder.lastError?.code == .checksumMismatch)
        #expect(recorder.failedCount == 1)
        #expect(recorder.recordedCount == 0)
        try await recorder.waitUntilRecorded()
        #expect(try log.latestRevision == 2)
    }
}
