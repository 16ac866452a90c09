import Testing

@testable import ListAdapter

/// Whether two arrays are one storage.
private func sameStorage<Element>(_ first: [Element], _ second: [Element]) -> Bool {
    first.withUnsafeBufferPointer { first in
        second.withUnsafeBufferPointer { second in first.baseAddress == second.baseAddress }
    }
}

// What a replay of consecutive revisions relies on to compare only what changed: after a batch,
// the view holds the data source's storage for every section equal to it, and only those; and
// changes that only update summaries keep the snapshot's index.
extension StrictListViewTests {
    @Test("after a batch the view holds the data source's storage for its equal sections, never for a stale one")
    func sharesEqualSections() throws {
        let old = Self.snapshot([("A", ["a=1", "b"]), ("B", ["c", "d"]), ("C", ["e"])])
        let new = Self.snapshot([("A", ["a=2", "b"]), ("B", ["c", "d"]), ("C", ["e", "f"])])
        var view = View(showing: old)
        // The batch leaves out a's update: A stays stale, B and C equal the data source's.
        try view.performBatchUpdates(
            StringChanges(insertedItems: [.init(at: Self.path(2, 1), id: "f", summary: nil)]), resultingIn: new)
        #expect(view.snapshot.sections[0] == old.sections[0])
        #expect(!sameStorage(view.snapshot.sections[0].items, new.sections[0].items))
        #expect(sameStorage(view.snapshot.sections[1].items, new.sections[1].items))
        #expect(sameStorage(view.snapshot.sections[2].items, new.sections[2].items))
        #expect(view.snapshot._invariantViolation() == nil)
        // A data source whose section B holds other identifiers, of the same count, is still caught.
        let other = Self.snapshot([("A", ["a=1", "b"]), ("B", ["d", "c"]), ("C", ["e", "f"])])
        #expect(throws: BatchUpdateError.self) { try view.performBatchUpdates(StringChanges(), resultingIn: other) }

        var staged = View(showing: old)
        try staged.performBatchUpdatesDeferringReconfigures(old.changes(to: new), resultingIn: new)
        #expect(staged.snapshot == new)
        for offset in 0..<3 {
            #expect(sameStorage(staged.snapshot.sections[offset].items, new.sections[offset].items))
        }
    }

    @Test("changes that only update summaries keep the snapshot's index")
    func updatesKeepTheIndex() throws {
        let old = Self.snapshot([("A", ["a=1", "b"]), ("B", ["c"])])
        let changes = StringChanges(
            updatedSections: [.init(from: 1, to: 1, summary: "s")],
            updatedItems: [.init(from: Self.path(0, 0), to: Self.path(0, 0), summary: "2")])
        let new = try old.applying(changes)
        #expect(new == Self.snapshot([("A", ["a=2", "b"]), ("B", ["c"])]).withSectionSummary("s", at: 1))
        #expect(sameStorage(new.storedPathsByID.slots, old.storedPathsByID.slots))
        #expect(new._invariantViolation() == nil)
        // Any structural change builds a new index.
        let moved = try old.applying(StringChanges(movedItems: [.init(from: Self.path(0, 1), to: Self.path(1, 1))]))
        #expect(!sameStorage(moved.storedPathsByID.slots, old.storedPathsByID.slots))
        #expect(moved.path(of: "b") == Self.path(1, 1))
    }
}

extension StringSnapshot {
    /// This snapshot with section `offset`'s summary set to `summary`.
    fileprivate func withSectionSummary(_ summary: String, at offset: Int) -> StringSnapshot {
        var sections = self.sections
        sections[offset].summary = summary
        return try! StringSnapshot(sections: sections)
    }
}
