import Testing

@testable import ListAdapter

/// Seeded random snapshot pairs: the diff is exact, valid for a strict renderer, and minimal.
@Suite("Diff: properties over random snapshot pairs")
struct DiffPropertyTests {
    /// Counts how often each kind of change occurred, to prove the generator covers them all.
    struct Coverage {
        var sectionInserts = 0, sectionDeletes = 0, sectionMoves = 0
        var itemInserts = 0, itemDeletes = 0, crossSectionMoves = 0, inSectionMoves = 0, updates = 0
        var leavingIntoInsertedSection = 0, arrivingFromDeletedSection = 0
        var emptyTitles = 0, absentSummaries = 0
    }

    @Test("apply(a, diff(a, b)) == b, a strict renderer accepts it, and the moves are the fewest")
    func randomPairs() throws {
        var rng = SeededGenerator(seed: 0x5EED_2026)
        var coverage = Coverage()
        for pair in 0..<10_000 {
            let old = RandomSnapshots.snapshot(using: &rng)
            let new = RandomSnapshots.successor(of: old, using: &rng)
            let changes = old.changes(to: new)

            let applied = try old.applying(changes)
            #expect(applied == new, "pair \(pair): apply(old, diff) differs from new")

            var formatView = StrictListView<String, String>(strictness: .format)
            formatView.reloadData(old)
            try formatView.performBatchUpdates(changes, resultingIn: new)
            #expect(formatView.snapshot == new, "pair \(pair)")

            let moves = changes.movedSections.count + changes.movedItems.count
            #expect(moves == minimumMoves(from: old, to: new), "pair \(pair): moves are not minimal")
            record(changes, old: old, new: new, into: &coverage)
        }
        #expect(coverage.sectionInserts > 0 && coverage.sectionDeletes > 0 && coverage.sectionMoves > 0)
        #expect(coverage.itemInserts > 0 && coverage.itemDeletes > 0 && coverage.updates > 0)
        #expect(coverage.crossSectionMoves > 0 && coverage.inSectionMoves > 0)
        #expect(coverage.leavingIntoInsertedSection > 0 && coverage.arrivingFromDeletedSection > 0)
        #expect(coverage.emptyTitles > 0 && coverage.absentSummaries > 0)
    }

    /// The fewest moves any valid change set can have, computed independently of the diff with a
    /// quadratic longest-increasing-subsequence: sections whose order changed, plus, per
    /// surviving section, the items that change section and those whose order changed.
    func minimumMoves(from old: StringSnapshot, to new: StringSnapshot) -> Int {
        let survivingOld = new.sections.compactMap { old.sectionOffset(titled: $0.title) }
        var moves = survivingOld.count - quadraticLISLength(survivingOld)
        for (newOffset, section) in new.sections.enumerated() {
            guard let oldOffset = old.sectionOffset(titled: section.title) else { continue }
            var staying: [Int] = []
            for item in section.items {
                guard let from = old.path(of: item.id),
                    new.sectionOffset(titled: old.sections[from.section].title) != nil
                else { continue }
                if from.section == oldOffset { staying.append(from.item) } else { moves += 1 }
            }
            _ = newOffset
            moves += staying.count - quadraticLISLength(staying)
        }
        return moves
    }

    func quadraticLISLength(_ values: [Int]) -> Int {
        var best = [Int](repeating: 1, count: values.count)
        for i in values.indices {
            for j in 0..<i where values[j] < values[i] { best[i] = max(best[i], best[j] + 1) }
        }
        return best.max() ?? 0
    }

    func record(_ changes: StringChanges, old: StringSnapshot, new: StringSnapshot, into coverage: inout Coverage) {
        coverage.sectionInserts += changes.insertedSections.count
        coverage.sectionDeletes += changes.deletedSections.count
        coverage.sectionMoves += changes.movedSections.count
        coverage.itemInserts += changes.insertedItems.count
        coverage.itemDeletes += changes.deletedItems.count
        coverage.updates += changes.updatedItems.count
        for move in changes.movedItems {
            let crosses = old.sections[move.from.section].title != new.sections[move.to.section].title
            if crosses { coverage.crossSectionMoves += 1 } else { coverage.inSectionMoves += 1 }
        }
        let insertedTitles = Set(changes.insertedSections.map(\.section.title))
        for deleted in changes.deletedItems {
            let id = old.sections[deleted.section].items[deleted.item].id
            if let to = new.path(of: id), insertedTitles.contains(new.sections[to.section].title) {
                coverage.leavingIntoInsertedSection += 1
            }
        }
        let deletedOffsets = Set(changes.deletedSections)
        for inserted in changes.insertedItems {
            if let from = old.path(of: inserted.id), deletedOffsets.contains(from.section) {
                coverage.arrivingFromDeletedSection += 1
            }
        }
        coverage.emptyTitles += new.sections.filter { $0.title.isEmpty }.count
        coverage.absentSummaries += new.sections.flatMap(\.items).filter { $0.summary == nil }.count
    }
}
