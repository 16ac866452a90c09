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
}
