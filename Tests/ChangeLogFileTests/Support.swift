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
