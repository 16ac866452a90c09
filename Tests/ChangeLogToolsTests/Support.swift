import ChangeLog
import Foundation
import ListAdapter
import Synchronization

// The helpers of ChangeLogTests' Support.swift that these tests use, for the tool's library.

/// A fresh directory under the system's temporary directory, removed by `body`'s end.
func withTemporaryDirectory<R>(_ body: (String) async throws -> R) async throws -> R {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("ChangeLogToolsTests-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try await body(path)
}

/// The same, for synchronous bodies.
func withTemporaryDirectory<R>(_ body: (String) throws -> R) throws -> R {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("ChangeLogToolsTests-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try body(path)
}

/// The tests' seeded generator: ListAdapter's SplitMix64, so random tests repeat exactly.
typealias SeededGenerator = SplitMix64

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

/// A thread-safe counter.
final class Counter: Sendable {
    private let count = Atomic(0)

    var value: Int { count.load(ordering: .relaxed) }

    func increment() {
        count.add(1, ordering: .relaxed)
    }
}
