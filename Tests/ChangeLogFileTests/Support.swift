import ChangeLog
import Foundation
import ListAdapter
import Testing

/// A fresh directory under the system's temporary directory, removed by `body`'s end.
func withTemporaryDirectory<R>(_ body: (String) async throws -> R) async throws -> R {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("ChangeLogFileTests-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try await body(path)
}

/// A seeded random history: each snapshot one to four edits from the one before (items
/// inserted, deleted, moved within and across sections, updated; sections inserted, deleted).
struct RandomSnapshots {
    private var generator: SplitMix64
    private var sections: [LogSnapshot.Section] = []
    private var next = 0

    init(seed: UInt64) {
        generator = SplitMix64(seed: seed)
        for _ in 0..<3 { insertSection() }
    }

    /// The next `count` snapshots.
    mutating func take(_ count: Int) -> [LogSnapshot] {
        (0..<count).map { _ in
            for _ in 0..<Int.random(in: 1...4, using: &generator) { edit() }
            return try! LogSnapshot(sections: sections)
        }
    }

    private mutating func edit() {
        switch Int.random(in: 0..<12, using: &generator) {
        case 0: insertSection()
        case 1 where sections.count > 1: sections.remove(at: Int.random(in: 0..<sections.count, using: &generator))
        case 2...5:
            let section = Int.random(in: 0..<sections.count, using: &generator)
            let at = Int.random(in: 0...sections[section].items.count, using: &generator)
            sections[section].items.insert(newItem(), at: at)
        case 6, 7:
            let section = Int.random(in: 0..<sections.count, using: &generator)
            guard !sections[section].items.isEmpty else { return }
            let item = sections[section].items.remove(
                at: Int.random(in: 0..<sections[section].items.count, using: &generator))
            let target = Int.random(in: 0..<sections.count, using: &generator)
            sections[target].items.insert(item, at: Int.random(in: 0...sections[target].items.count, using: &generator))
        case 8, 9:
            let section = Int.random(in: 0..<sections.count, using: &generator)
            guard !sections[section].items.isEmpty else { return }
            let offset = Int.random(in: 0..<sections[section].items.count, using: &generator)
            next += 1
            sections[section].items[offset].summary = "updated \(next)"
        default:
            let section = Int.random(in: 0..<sections.count, using: &generator)
            guard !sections[section].items.isEmpty else { return }
            sections[section].items.remove(at: Int.random(in: 0..<sections[section].items.count, using: &generator))
        }
    }

    private mutating func insertSection() {
        next += 1
        let items = (0..<Int.random(in: 0...6, using: &generator)).map { _ in newItem() }
        let at = Int.random(in: 0...sections.count, using: &generator)
        sections.insert(LogSnapshot.Section(title: "Section \(next)", items: items), at: at)
    }

    private mutating func newItem() -> LogSnapshot.Item {
        next += 1
        return LogSnapshot.Item(id: "item-\(next)", summary: "Item \(next)")
    }
}

/// `snapshots` as append entries stamped with fixed times (one second apart from `start`), so
/// that two logs given them store the same bytes.
func entries(_ snapshots: [LogSnapshot], start: Int64 = 1_700_000_000_000) -> [ChangeLog.AppendEntry] {
    snapshots.enumerated().map { offset, snapshot in
        var entry = ChangeLog.AppendEntry(snapshot)
        entry.millisecondsSince1970 = start + Int64(offset) * 1000
        return entry
    }
}

/// Appends `entries` in groups of one to five, each group one transaction.
func appendInGroups(_ entries: [ChangeLog.AppendEntry], to log: ChangeLog, seed: UInt64) async throws {
    var generator = SplitMix64(seed: seed)
    var index = 0
    while index < entries.count {
        let count = min(Int.random(in: 1...5, using: &generator), entries.count - index)
        _ = try await log.append(contentsOf: Array(entries[index..<index + count]))
        index += count
    }
}

/// The stored bytes of every record and chunk of `log`, as its engine hands them over.
func storedBytes(of log: ChangeLog) throws -> (records: [[UInt8]], chunks: [UInt64: [UInt8]]) {
    try log.storage.read { transaction in
        var records: [[UInt8]] = []
        let latest = try transaction.withLatestRecord { revision, _ in revision } ?? 0
        for revision in stride(from: UInt64(1), through: latest, by: 1) {
            records.append(try transaction.withRecord(at: revision) { Array($0!) })
        }
        var chunks: [UInt64: [UInt8]] = [:]
        for id in stride(from: UInt64(1), through: try transaction.largestChunkID() ?? 0, by: 1) {
            if let bytes = try transaction.withChunk(id, { $0.map { Array($0) } }) { chunks[id] = bytes }
        }
        return (records, chunks)
    }
}

/// The size of the file at `path`.
func fileSize(_ path: String) throws -> Int {
    try (FileManager.default.attributesOfItem(atPath: path)[.size] as! NSNumber).intValue
}

/// The snapshot of a subscription's revision event; `nil` for any other event.
func snapshotOf(_ event: LogSubscription.Event) -> LogSnapshot? {
    guard case .revision(let record) = event else { return nil }
    return record.snapshot
}
