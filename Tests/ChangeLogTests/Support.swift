import Foundation
import ListAdapter
import Testing

@testable import ChangeLog

/// A fresh directory under the system's temporary directory, removed by `body`'s end.
func withTemporaryDirectory<R>(_ body: (String) async throws -> R) async throws -> R {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("ChangeLogTests-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try await body(path)
}

/// The same, for synchronous bodies.
func withTemporaryDirectory<R>(_ body: (String) throws -> R) throws -> R {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("ChangeLogTests-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try body(path)
}

/// The tests' seeded generator: ListAdapter's SplitMix64, so random tests repeat exactly.
typealias SeededGenerator = SplitMix64

/// A snapshot of `sections` sections of `itemsPerSection` items each, with summaries.
func makeSnapshot(sections: Int, itemsPerSection: Int, version: Int = 0) throws -> LogSnapshot {
    try LogSnapshot(sections: makeSections(sections: sections, itemsPerSection: itemsPerSection, version: version))
}

func makeSections(sections: Int, itemsPerSection: Int, version: Int = 0) -> [LogSnapshot.Section] {
    (0..<sections).map { section in
        LogSnapshot.Section(
            title: "Section \(section)",
            items: (0..<itemsPerSection).map { offset in
                let number = section * itemsPerSection + offset
                return LogSnapshot.Item(id: "item-\(number)", summary: "Title \(number), version \(version)")
            })
    }
}

/// A small snapshot from a compact description: `[("A", ["a", "b:summary"])]`; an item written
/// `id:summary` has that summary, a bare `id` none.
func snapshot(_ sections: [(String, [String])]) throws -> LogSnapshot {
    try LogSnapshot(
        sections: sections.map { title, items in
            LogSnapshot.Section(
                title: title,
                items: items.map { item in
                    let parts = item.split(separator: ":", maxSplits: 1).map(String.init)
                    return LogSnapshot.Item(id: parts[0], summary: parts.count > 1 ? parts[1] : nil)
                })
        })
}

/// Expects every stored revision's changes to be exactly the diff from the revision before it
/// (the empty snapshot for the first), and the log to verify.
func expectEachRevisionDiffsItsPredecessor(
    _ log: ChangeLog, sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    var previous = LogSnapshot()
    for try await record in log.records(from: 1) {
        #expect(
            record.changes == previous.changes(to: record.snapshot), "revision \(record.revision)",
            sourceLocation: sourceLocation)
        previous = record.snapshot
    }
    let report = try await log.verify()
    #expect(report.isValid, "\(report)", sourceLocation: sourceLocation)
}
