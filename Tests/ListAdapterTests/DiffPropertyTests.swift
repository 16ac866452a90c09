import PropertyBased
import Testing

@testable import ListAdapter

/// Seeded random snapshot pairs: the diff is exact, valid for a strict renderer, and minimal.
/// The pairs come from `SnapshotPairs`, so every run checks the same ones and a failing pair
/// is reported shrunk to the smallest pair that still fails.
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
    func randomPairs() async {
        var coverage = Coverage()
        var checked = 0
        await propertyCheck(count: 10_000, input: SnapshotPairs.generator(seed: 0x5EED_2026)) { pair in
            let (old, new) = (pair.old, pair.new)
            let changes = old.changes(to: new)
            expectNoError {
                #expect(try old.applying(changes) == new, "apply(old, diff) differs from new")
                var formatView = StrictListView<String, String, String>(strictness: .format)
                formatView.reloadData(old)
                try formatView.performBatchUpdates(changes, resultingIn: new)
                #expect(formatView.snapshot == new)
            }
            let moves = changes.movedSections.count + changes.movedItems.count
            #expect(moves == minimumMoves(from: old, to: new), "moves are not minimal")
            record(changes, old: old, new: new, into: &coverage)
            checked += 1
        }
        #expect(checked >= 10_000)
        #expect(coverage.sectionInserts > 0 && coverage.sectionDeletes > 0 && coverage.sectionMoves > 0)
        #expect(coverage.itemInserts > 0 && coverage.itemDeletes > 0 && coverage.updates > 0)
        #expect(coverage.crossSectionMoves > 0 && coverage.inSectionMoves > 0)
        #expect(coverage.leavingIntoInsertedSection > 0 && coverage.arrivingFromDeletedSection > 0)
        #expect(coverage.emptyTitles > 0 && coverage.absentSummaries > 0)
    }

    @Test("each list holds exactly the operations FORMAT.md names, deletions and insertions ascending")
    func operationLists() async {
        var checked = 0
        await propertyCheck(count: 3_000, input: SnapshotPairs.generator(seed: 0xF0_12A7)) { pair in
            checkOperationLists(old: pair.old, new: pair.new)
            checked += 1
        }
        #expect(checked >= 3_000)
    }

    /// The lists of `old.changes(to: new)`, each computed here independently from FORMAT.md's
    /// definitions.
    func checkOperationLists(old: StringSnapshot, new: StringSnapshot) {
        let changes = old.changes(to: new)
        let oldTitles = Set(old.sections.map(\.title))
        let newTitles = Set(new.sections.map(\.title))
        func oldPaths(where include: (ItemPath, StringSnapshot.Item) -> Bool) -> [ItemPath] {
            old.sections.indices.flatMap { section in
                old.sections[section].items.indices.map { ItemPath(section: section, item: $0) }
            }.filter { include($0, old.item(at: $0)!) }
        }
        func newPaths(where include: (ItemPath, StringSnapshot.Item) -> Bool) -> [ItemPath] {
            new.sections.indices.flatMap { section in
                new.sections[section].items.indices.map { ItemPath(section: section, item: $0) }
            }.filter { include($0, new.item(at: $0)!) }
        }
        func survives(_ path: ItemPath, in snapshot: StringSnapshot, other: Set<String>) -> Bool {
            other.contains(snapshot.sections[path.section].title)
        }

        // Sections: deleted ascending in O, inserted ascending in N with their full items.
        let deletedSections = old.sections.indices.filter { !newTitles.contains(old.sections[$0].title) }
        #expect(changes.deletedSections == deletedSections)
        let insertedSections = new.sections.indices.filter { !oldTitles.contains(new.sections[$0].title) }
        #expect(changes.insertedSections.map(\.index) == insertedSections)
        #expect(changes.insertedSections.allSatisfy { new.sections[$0.index] == $0.section })
        #expect(
            changes.movedSections.allSatisfy {
                oldTitles.contains(new.sections[$0.to].title)
                    && old.sections[$0.from].title == new.sections[$0.to].title
            })

        // Items leave a surviving section when they are gone from N or now in an inserted section.
        let deletedItems = oldPaths { path, item in
            guard survives(path, in: old, other: newTitles) else { return false }
            guard let to = new.path(of: item.id) else { return true }
            return !survives(to, in: new, other: oldTitles)
        }
        #expect(changes.deletedItems == deletedItems)
        // Items arrive in a surviving section when they are new or come out of a deleted section.
        let insertedItems = newPaths { path, item in
            guard survives(path, in: new, other: oldTitles) else { return false }
            guard let from = old.path(of: item.id) else { return true }
            return !survives(from, in: old, other: newTitles)
        }
        #expect(changes.insertedItems.map(\.at) == insertedItems)
        #expect(changes.insertedItems.allSatisfy { new.item(at: $0.at) == .init(id: $0.id, summary: $0.summary) })
        // Moves and updates concern items in surviving sections on both sides.
        #expect(
            changes.movedItems.allSatisfy {
                survives($0.from, in: old, other: newTitles) && survives($0.to, in: new, other: oldTitles)
                    && old.item(at: $0.from)?.id == new.item(at: $0.to)?.id
            })
        let updates = newPaths { path, item in
            guard survives(path, in: new, other: oldTitles), let from = old.path(of: item.id) else { return false }
            return survives(from, in: old, other: newTitles) && old.item(at: from)?.summary != item.summary
        }.map {
            StringChanges.ItemUpdate(
                from: old.path(of: new.item(at: $0)!.id)!, to: $0, summary: new.item(at: $0)!.summary)
        }
        #expect(Set(changes.updatedItems) == Set(updates))
        #expect(changes.updatedItems.count == updates.count)
    }

    /// FORMAT.md: the fewest moves are the goal, "any correct set is valid". Here every section
    /// and item on both sides is listed as moved, including those that keep their place, in an
    /// order shuffled by a generator seeded with the pair's index.
    @Test("any correct set of moves is valid, not only the fewest: apply gives N and a strict view accepts it")
    func nonMinimalMoves() async {
        var checked = 0
        await propertyCheck(count: 3_000, input: SnapshotPairs.generator(seed: 0x0A11_B0B5)) { pair in
            let (old, new) = (pair.old, pair.new)
            var shuffler = SeededGenerator(seed: UInt64(pair.index))
            var changes = old.changes(to: new)
            changes.movedSections = new.sections.indices.compactMap { to in
                old.sectionOffset(titled: new.sections[to].title).map { .init(from: $0, to: to) }
            }
            changes.movedItems = []
            for (to, section) in new.sections.enumerated() where old.sectionOffset(titled: section.title) != nil {
                for (item, value) in section.items.enumerated() {
                    guard let from = old.path(of: value.id),
                        new.sectionOffset(titled: old.sections[from.section].title) != nil
                    else { continue }
                    changes.movedItems.append(.init(from: from, to: ItemPath(section: to, item: item)))
                }
            }
            changes.movedItems.shuffle(using: &shuffler)
            changes.movedSections.shuffle(using: &shuffler)
            expectNoError {
                #expect(try old.applying(changes) == new)
                var view = StrictListView<String, String, String>(strictness: .format, showing: old)
                try view.performBatchUpdates(changes, resultingIn: new)
                #expect(view.snapshot == new)
            }
            checked += 1
        }
        #expect(checked >= 3_000)
    }

    /// Runs `body`, recording what it throws as an issue: inside a property check a thrown error
    /// must be an issue of the case, so that the case shrinks and is reported like a failed
    /// expectation.
    func expectNoError(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            try body()
        } catch {
            Issue.record(error, sourceLocation: sourceLocation)
        }
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
