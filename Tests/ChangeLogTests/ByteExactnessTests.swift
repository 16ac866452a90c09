import ChangeLog
import Foundation
import ListAdapter
import Testing

@Suite("Byte exactness")
struct ByteExactnessTests {
    @Test("a snapshot that differs only in Unicode normalization is stored with its own bytes")
    func normalization() async throws {
        try await withTemporaryDirectory { directory in
            let log = try ChangeLog(path: directory + "/log")
            let composed = "caf\u{E9}"
            let decomposed = "cafe\u{301}"
            #expect(composed == decomposed)  // Swift's String equality is canonical equivalence.
            let first = try LogSnapshot(sections: [.init(title: "A", items: [.init(id: "x", summary: composed)])])
            let second = try LogSnapshot(sections: [.init(title: "A", items: [.init(id: "x", summary: decomposed)])])
            _ = try await log.append(first)
            _ = try await log.append(second)
            let stored = try log.snapshot(at: 2).sections[0].items[0].summary
            #expect(stored.map { Array($0.utf8) } == Array(decomposed.utf8))
            #expect(try log.snapshot(at: 1).sections[0].items[0].summary.map { Array($0.utf8) } == Array(composed.utf8))
        }
    }

    /// The writer finds a section's counterpart in the previous snapshot by its title, with
    /// Swift's equality; reusing that section's chunk as it is would store the old title's bytes.
    @Test(
        "a section title that differs only in Unicode normalization is stored with its own bytes",
        arguments: [false, true])
    func titleNormalization(titleMoves: Bool) async throws {
        try await withTemporaryDirectory { directory in
            let log = try ChangeLog(path: directory + "/log")
            let composed = "caf\u{E9}"
            let decomposed = "cafe\u{301}"
            let items: [LogSnapshot.Item] = [.init(id: "x", summary: "s"), .init(id: "y")]
            let other = LogSnapshot.Section(title: "other", items: [.init(id: "z")])
            // With `titleMoves`, the section is found by its title at another offset; otherwise
            // at the same offset, where the title's bits differ.
            let first = try LogSnapshot(sections: [.init(title: composed, items: items), other])
            let second = try LogSnapshot(
                sections: titleMoves
                    ? [other, .init(title: decomposed, items: items)] : [.init(title: decomposed, items: items), other])
            _ = try await log.append(first)
            _ = try await log.append(second)
            _ = try await log.append(second)
            let offset = titleMoves ? 1 : 0
            for revision: UInt64 in [2, 3] {
                let title = try log.snapshot(at: revision).sections[offset].title
                #expect(Array(title.utf8) == Array(decomposed.utf8), "revision \(revision)")
            }
            #expect(Array(try log.snapshot(at: 1).sections[0].title.utf8) == Array(composed.utf8))
            let reopened = try ChangeLog(path: directory + "/log")
            #expect(Array(try reopened.snapshot(at: 3).sections[offset].title.utf8) == Array(decomposed.utf8))
            #expect(try await log.verify().isValid)
        }
    }

    /// Random histories (``RandomHistory``) whose titles, identifiers and summaries each end in
    /// an "é" that switches between its precomposed and decomposed spellings from time to time:
    /// equal by Swift's equality, so the diff and the cut see the same strings, yet every
    /// revision must come back with its own bytes.
    @Test(
        "random histories whose strings switch Unicode normalization are stored byte for byte",
        arguments: [UInt64(1), 2, 3])
    func respelledHistories(seed: UInt64) async throws {
        try await withTemporaryDirectory { directory in
            let log = try ChangeLog(path: directory + "/log", options: .init(durability: .noSync))
            var generator = SeededGenerator(seed: seed)
            var decomposed: [String: Bool] = [:]
            func respelled(_ string: String) -> String {
                if Int.random(in: 0..<6, using: &generator) == 0 {
                    decomposed[string, default: false].toggle()
                }
                return string + (decomposed[string, default: false] ? "e\u{301}" : "\u{E9}")
            }
            var appended: [LogSnapshot] = []
            for snapshot in RandomHistory.snapshots(seed: seed, count: 150) {
                let sections = snapshot.sections.map { section in
                    LogSnapshot.Section(
                        title: respelled(section.title),
                        items: section.items.map { .init(id: respelled($0.id), summary: $0.summary.map(respelled)) })
                }
                let next = try LogSnapshot(sections: sections)
                _ = try await log.append(next)
                appended.append(next)
            }
            for (offset, snapshot) in appended.enumerated() {
                let stored = try log.snapshot(at: UInt64(offset + 1))
                #expect(Self.bytes(of: stored) == Self.bytes(of: snapshot), "revision \(offset + 1)")
            }
            #expect(try await log.verify().isValid)
        }
    }

    /// Every title, identifier and summary of `snapshot`, in order, as UTF-8 bytes.
    static func bytes(of snapshot: LogSnapshot) -> [[UInt8]] {
        snapshot.sections.flatMap { section in
            [Array(section.title.utf8)]
                + section.items.flatMap { [Array($0.id.utf8), $0.summary.map { Array($0.utf8) } ?? [0xFF]] }
        }
    }
}
