import PropertyBased
import Testing

@testable import ListAdapter

/// Random snapshots edited in place by random scripts: the changes the edits record are the
/// full diff's, exactly, and the edited snapshot's index is sound.
@Suite("Edits: properties over random edit scripts")
struct EditPropertyTests {
    struct Coverage {
        var sectionInserts = 0, sectionDeletes = 0, sectionMoves = 0, sectionUpdates = 0
        var itemInserts = 0, itemDeletes = 0, crossSectionMoves = 0, inSectionMoves = 0, updates = 0
    }

    @Test("changes(editedFrom:) equals the full diff and the edited snapshot's index is sound")
    func randomScripts() async {
        var coverage = Coverage()
        var checked = 0
        await propertyCheck(count: 5_000, input: EditScripts.generator(seed: 0xED17_2026)) { script in
            let edited = script.edited()
            #expect(edited._invariantViolation() == nil, "\(edited._invariantViolation() ?? "")")
            let expected = script.base.changes(to: edited)
            let recorded = edited.changes(editedFrom: script.base)
            #expect(recorded == expected || (script.steps.isEmpty && recorded == nil))
            #expect(script.base.changesFollowingEdits(to: edited) == expected)
            if let recorded {
                coverage.sectionInserts += recorded.insertedSections.count
                coverage.sectionDeletes += recorded.deletedSections.count
                coverage.sectionMoves += recorded.movedSections.count
                coverage.sectionUpdates += recorded.updatedSections.count
                coverage.itemInserts += recorded.insertedItems.count
                coverage.itemDeletes += recorded.deletedItems.count
                coverage.updates += recorded.updatedItems.count
                for move in recorded.movedItems {
                    let sameTitle =
                        script.base.sections[move.from.section].title == edited.sections[move.to.section].title
                    if sameTitle { coverage.inSectionMoves += 1 } else { coverage.crossSectionMoves += 1 }
                }
            }
            checked += 1
        }
        #expect(checked >= 5_000)
        #expect(coverage.sectionInserts > 0 && coverage.sectionDeletes > 0 && coverage.sectionMoves > 0)
        #expect(coverage.sectionUpdates > 0 && coverage.itemInserts > 0 && coverage.itemDeletes > 0)
        #expect(coverage.updates > 0 && coverage.crossSectionMoves > 0 && coverage.inSectionMoves > 0)
    }

    @Test("a copy of an edited snapshot, edited in turn, records its edits from the copy")
    func copiesStartAgain() async {
        await propertyCheck(count: 1_000, input: EditScripts.generator(seed: 0xC0_B1E5)) { script in
            let half = script.steps.count / 2
            var first = script.base
            for step in script.steps[..<half] { try? step.apply(to: &first) }
            var second = first
            for step in script.steps[half...] { try? step.apply(to: &second) }
            #expect(second._invariantViolation() == nil)
            if let journal = second.editJournal, journal.base !== first.editJournal?.base {
                // `second` was copied from `first` and edited: its edits start there.
                #expect(second.changes(editedFrom: first) == first.changes(to: second))
            }
            #expect(first.changesFollowingEdits(to: second) == first.changes(to: second))
            #expect(script.base.changesFollowingEdits(to: second) == script.base.changes(to: second))
        }
    }
}
