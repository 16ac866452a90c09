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
            #expect(composed == decomposed)  // Swift's `==` on strings is canonical equivalence.
            let first = try LogSnapshot(sections: [.init(title: "A", items: [.init(id: "x", summary: composed)])])
            let second = try LogSnapshot(sections: [.init(title: "A", items: [.init(id: "x", summary: decomposed)])])
            _ = try await log.append(first)
            _ = try await log.append(second)
            let stored = try log.snapshot(at: 2).sections[0].items[0].summary
            #expect(stored.map { Array($0.utf8) } == Array(decomposed.utf8))
            #expect(try log.snapshot(at: 1).sections[0].items[0].summary.map { Array($0.utf8) } == Array(composed.utf8))
        }
    }

    /// FORMAT.md's `apply(O, C)` must give N exactly, so a title, identifier or summary that
    /// only changes its Unicode normalization is a change: the stored changes, applied to the
    /// revision before, give the stored snapshot's own code points.
    @Test("a string that only changes its normalization is a change, and applying it gives the new bytes")
    func normalizationIsAChange() async throws {
        try await withTemporaryDirectory { directory in
            let log = try ChangeLog(path: directory + "/log")
            let composed = "caf\u{E9}"
            let decomposed = "cafe\u{301}"
            let first = try LogSnapshot(sections: [
                .init(title: "A", items: [.init(id: "x", summary: composed), .init(id: composed)]),
                .init(title: composed, items: [.init(id: "y")]),
            ])
            let second = try LogSnapshot(sections: [
                .init(title: "A", items: [.init(id: "x", summary: decomposed), .init(id: decomposed)]),
                .init(title: decomposed, items: [.init(id: "y")]),
            ])
            #expect(first != second)
            _ = try await log.append(first)
            let changes = try await log.append(second).changes
            #expect(changes.updatedItems.map(\.summary) == [decomposed])
            #expect(changes.deletedItems == [ItemPath(section: 0, item: 1)])
            #expect(changes.insertedItems.map(\.id) == [decomposed])
            #expect(changes.deletedSections == [1])
            #expect(changes.insertedSections.map(\.section.title) == [decomposed])
            let applied = try log.snapshot(at: 1).applying(try log.record(at: 2).changes)
            #expect(Self.bytes(of: applied) == Self.bytes(of: second))
            #expect(applied == second)
            #expect(try await log.verify().isValid)
        }
    }

    @Test("verify catches changes that miss a change of normalization, and spells the difference out")
    func verifyCatchesNormalization() async throws {
        try await withTemporaryDirectory { directory in
            let log = try ChangeLog(path: directory + "/log")
            let first = try LogSnapshot(sections: [.init(title: "A", items: [.init(id: "x", summary: "caf\u{E9}")])])
            let second = try LogSnapshot(sections: [.init(title: "A", items: [.init(id: "x", summary: "cafe\u{301}")])])
            _ = try await log.append(first)
            // Changes stored as given, unchecked: none, as a canonical-equivalence diff would find.
            _ = try await log.append(second, changes: LogChanges())
            let failure = try #require(try await log.verify().failure)
            #expect(failure.revision == 2)
            #expect(
                failure.differences == [
                    #"section 0 "A": item [0, 0] "x" expected summary "cafe\u{301}" but found summary "caf\u{e9}""#
                ])
        }
    }

    @Test("two spellings of one text are two titles, or two identifiers, in one snapshot")
    func spellingsAreDistinct() throws {
        let snapshot = try LogSnapshot(sections: [
            .init(title: "\u{E9}", items: [.init(id: "\u{C5}"), .init(id: "\u{212B}")]),
            .init(title: "e\u{301}", items: [.init(id: "K"), .init(id: "\u{212A}")]),
        ])
        #expect(snapshot.itemCount == 4)
        #expect(snapshot.sectionOffset(titled: "e\u{301}") == 1)
        #expect(snapshot.path(of: "\u{212B}") == ItemPath(section: 0, item: 1))
        #expect(snapshot.path(of: "\u{212A}") == ItemPath(section: 1, item: 1))
        #expect(snapshot.path(of: "A\u{30A}") == nil)
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
    /// equal by Swift's `==`, other strings to snapshots (deleted and inserted, or updated), and
    /// every revision must come back with its own bytes.
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
