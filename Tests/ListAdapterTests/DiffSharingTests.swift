import ListFormat
import Testing

@testable import ListAdapter

/// The diff takes shortcuts for what a new snapshot shares with the old one: a section whose
/// items are the old section's storage is unchanged, and an item whose bits are the old item's
/// is the same item with the same summary. These tests hold the shortcuts to the result of the
/// diff on copies that share nothing.
@Suite("Diff: snapshots that share storage")
struct DiffSharingTests {
    /// A copy of `snapshot` that shares no storage with it: new arrays, and new storage for every
    /// string too long to be stored inline.
    static func unshared(_ snapshot: StringSnapshot) throws -> StringSnapshot {
        func copy(_ string: String) -> String { String(decoding: Array(string.utf8), as: UTF8.self) }
        return try StringSnapshot(
            sections: snapshot.sections.map { section in
                .init(
                    title: copy(section.title), summary: section.summary.map(copy),
                    items: section.items.map { .init(id: copy($0.id), summary: $0.summary.map(copy)) })
            })
    }

    /// `old` with a few edits in place: the sections it does not touch keep their storage.
    static func edited(_ old: StringSnapshot, using rng: inout SeededGenerator) throws -> StringSnapshot {
        var sections = old.sections
        guard !sections.isEmpty else { return old }
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
            let section = Int.random(in: 0..<sections.count, using: &rng)
            let count = sections[section].items.count
            switch Int.random(in: 0..<4, using: &rng) {
            case 0 where count > 0:
                sections[section].items[Int.random(in: 0..<count, using: &rng)].summary =
                    "summary long enough to be stored out of line \(rng.next())"
            case 1 where count > 1:
                let item = sections[section].items.remove(at: Int.random(in: 0..<count, using: &rng))
                sections[section].items.insert(item, at: Int.random(in: 0..<count, using: &rng))
            case 2 where count > 0:
                sections[section].items.remove(at: Int.random(in: 0..<count, using: &rng))
            default:
                sections[section].items.insert(
                    .init(id: "inserted item \(rng.next())", summary: "new"), at: Int.random(in: 0...count, using: &rng)
                )
            }
        }
        return try StringSnapshot(sections: sections)
    }

    @Test("edits in place give the same changes as the same edits on unshared copies")
    func sharedAndUnshared() throws {
        var rng = SeededGenerator(seed: 0x5A4E_D1FF)
        var sharedSections = 0
        for pair in 0..<2_000 {
            let old = RandomSnapshots.snapshot(using: &rng)
            let new = try Self.edited(old, using: &rng)
            for (oldSection, newSection) in zip(old.sections, new.sections) {
                let same = oldSection.items.withUnsafeBufferPointer { oldItems in
                    newSection.items.withUnsafeBufferPointer { $0.baseAddress == oldItems.baseAddress }
                }
                if same, !oldSection.items.isEmpty { sharedSections += 1 }
            }
            let changes = old.changes(to: new)
            #expect(changes == (try Self.unshared(old)).changes(to: try Self.unshared(new)), "pair \(pair)")
            #expect(try old.applying(changes) == new, "pair \(pair)")
        }
        #expect(sharedSections > 1_000, "the shortcut for shared sections was not exercised")
    }

    /// A string the diff knows nothing about: items of this type take none of the shortcuts.
    struct Opaque: Hashable, Sendable, LosslessStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// `snapshot` with `Opaque` identifiers and summaries (of items and sections).
    static func opaque(_ snapshot: StringSnapshot) throws -> ListSnapshot<Opaque, Opaque, Opaque> {
        try ListSnapshot(
            sections: snapshot.sections.map { section in
                .init(
                    title: section.title, summary: section.summary.map(Opaque.init),
                    items: section.items.map { .init(id: Opaque($0.id), summary: $0.summary.map(Opaque.init)) })
            })
    }

    /// The shortcuts for strings (shared sections, items compared by their bits) must not
    /// change the result, down to which items are reported as moved where several choices of
    /// the fewest moves exist.
    @Test("the shortcuts for strings give the changes that items compared with == give")
    func shortcutsAgreeWithComparisons() throws {
        var rng = SeededGenerator(seed: 0x0DD5_1DE5)
        var trimmed = 0
        for pair in 0..<2_000 {
            let old = RandomSnapshots.snapshot(using: &rng)
            let new = pair.isMultiple(of: 4) ? RandomSnapshots.snapshot(using: &rng) : try Self.edited(old, using: &rng)
            let changes = old.changes(to: new)
            let reference = try Self.opaque(old).changes(to: try Self.opaque(new))
            #expect(changes.formatJSON() == reference.formatJSON(), "pair \(pair)")
            if !changes.movedItems.isEmpty || !changes.insertedItems.isEmpty { trimmed += 1 }
        }
        #expect(trimmed > 500, "too few pairs with item changes")
    }

    @Test("a snapshot diffed against itself or a copy of it has no changes")
    func sameSnapshot() throws {
        var rng = SeededGenerator(seed: 7)
        let snapshot = RandomSnapshots.snapshot(using: &rng)
        let copy = snapshot
        #expect(snapshot.changes(to: copy).isEmpty)
        #expect(snapshot.sharesStorage(with: copy))
        #expect(!snapshot.sharesStorage(with: try Self.unshared(snapshot)) || snapshot.sections.isEmpty)
        #expect(snapshot.changes(to: try Self.unshared(snapshot)).isEmpty)
    }

    @Test("for other types, only a section's shared storage is a shortcut; items are compared with ==")
    func otherTypes() throws {
        typealias Snapshot = ListSnapshot<Int, Double, Never>
        let old = try Snapshot(sections: [
            .init(title: "shared", items: [.init(id: 1, summary: .nan), .init(id: 2, summary: 1)]),
            .init(title: "edited", items: [.init(id: 3, summary: .nan), .init(id: 4, summary: 2)]),
        ])
        var sections = old.sections
        sections[1].items[1].summary = 3
        let new = try Snapshot(sections: sections)
        let changes = old.changes(to: new)
        // The shared section is skipped; in the edited one, NaN != NaN makes item 3 an update.
        #expect(changes.updatedItems.map(\.to) == [ItemPath(section: 1, item: 0), ItemPath(section: 1, item: 1)])
        #expect(changes.insertedItems.isEmpty && changes.deletedItems.isEmpty && changes.movedItems.isEmpty)
        #expect(!ListSnapshot<Int, Double, Never>.Item.comparesByBits)
        #expect(StringSnapshot.Item.comparesByBits)
    }
}
