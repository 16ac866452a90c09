import Foundation
import ListAdapter
import Testing

@testable import ChangeLog

@Suite("Storage cost")
struct StorageTests {
    /// 10,000 items in 100 sections; 1,000 revisions that each update 5 items and move 5 (3
    /// across sections, 2 inside one), one write transaction per revision. The log's growth per
    /// revision must stay under 5% of the snapshot's full (plain binary) encoded size.
    ///
    /// The changes are computed by diffing only the sections a revision touched (sections never
    /// move here, so their item operations are the full diff's), which keeps the test fast in
    /// debug builds; a sample of revisions is checked against `applying`.
    @Test("a revision changing 10 of 10,000 items costs under 5% of the snapshot")
    func smallChangesCostLittle() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path, options: .init(durability: .noSync))
            var sections = makeSections(sections: 100, itemsPerSection: 100)
            var generator = SeededGenerator(seed: 0x5EED)
            let first = try LogSnapshot(sections: sections)
            _ = try await log.append(first)
            let before = log.store.environment.info().usedBytes
            let fileBefore = try fileSize(path + "/data.mdb")
            var latest = first
            var sampled: [(revision: UInt64, snapshot: LogSnapshot)] = []
            for revision in 1...1000 {
                var touched = Set<Int>()
                for _ in 0..<5 {
                    let section = Int.random(in: 0..<sections.count, using: &generator)
                    guard !sections[section].items.isEmpty else { continue }
                    let offset = Int.random(in: 0..<sections[section].items.count, using: &generator)
                    let id = sections[section].items[offset].id
                    sections[section].items[offset].summary = "Title \(id), version \(revision)"
                    touched.insert(section)
                }
                for move in 0..<5 {
                    let from = Int.random(in: 0..<sections.count, using: &generator)
                    guard !sections[from].items.isEmpty else { continue }
                    let item = sections[from].items.remove(
                        at: Int.random(in: 0..<sections[from].items.count, using: &generator))
                    let to = move < 3 ? Int.random(in: 0..<sections.count, using: &generator) : from
                    sections[to].items.insert(item, at: Int.random(in: 0...sections[to].items.count, using: &generator))
                    touched.formUnion([from, to])
                }
                let next = try LogSnapshot(sections: sections)
                let changes = try changesOfTouchedSections(from: latest, to: next, touched: touched)
                if revision % 250 == 0 {
                    #expect(try latest.applying(changes) == next)
                }
                let appended = try await log.append(next, changes: changes)
                #expect(appended.changes.operationCount <= 10)
                if revision % 250 == 0 {
                    sampled.append((appended.revision, next))
                }
                latest = next
            }
            let growth = log.store.environment.info().usedBytes - before
            let fileGrowth = try fileSize(path + "/data.mdb") - fileBefore
            let perRevision = Double(growth) / 1000
            let plain = plainEncodedSize(of: latest)
            let json = latest.formatJSON().utf8.count
            let ratio = perRevision / Double(plain)
            print(
                "storage: \(Int(perRevision)) bytes per revision; snapshot \(plain) bytes binary, \(json) bytes JSON; "
                    + "\(String(format: "%.2f", ratio * 100))% of binary, "
                    + "\(String(format: "%.2f", perRevision / Double(json) * 100))% of JSON; data.mdb (with the zeros kept ahead) grew "
                    + "\(fileGrowth / 1000) bytes per revision")
            #expect(ratio <= 0.05)
            #expect(Double(fileGrowth) / 1000 <= 0.05 * Double(plain))
            #expect(try log.latestRevision == 1001)
            #expect(try log.snapshot(at: 1) == first)
            for sample in sampled {
                #expect(try log.snapshot(at: sample.revision) == sample.snapshot)
            }
        }
    }

    private func fileSize(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
    }

    /// The diff of the `touched` sections only, with section offsets mapped back.
    private func changesOfTouchedSections(from old: LogSnapshot, to new: LogSnapshot, touched: Set<Int>) throws
        -> LogChanges
    {
        let offsets = touched.sorted()
        let partial = try LogSnapshot(sections: offsets.map { old.sections[$0] })
            .changes(to: try LogSnapshot(sections: offsets.map { new.sections[$0] }))
        #expect(partial.deletedSections.isEmpty && partial.insertedSections.isEmpty && partial.movedSections.isEmpty)
        func full(_ path: ItemPath) -> ItemPath { ItemPath(section: offsets[path.section], item: path.item) }
        return LogChanges(
            deletedItems: partial.deletedItems.map(full),
            insertedItems: partial.insertedItems.map { .init(at: full($0.at), id: $0.id, summary: $0.summary) },
            movedItems: partial.movedItems.map { .init(from: full($0.from), to: full($0.to)) },
            updatedItems: partial.updatedItems.map { .init(from: full($0.from), to: full($0.to), summary: $0.summary) })
    }
}
