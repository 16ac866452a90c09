import Foundation
import Testing

@testable import ListAdapter

/// Change lists damaged at random: FORMAT.md's `apply` never traps on them.
@Suite("Apply: damaged changes")
struct ApplyDamageTests {
    /// Damages one operation of `changes`: shifts an index, duplicates, drops or retargets one.
    static func damage(_ changes: StringChanges, using rng: inout SeededGenerator) -> StringChanges {
        var changes = changes
        let shift = [-2, -1, 1, 2, 7].randomElement(using: &rng)!
        switch Int.random(in: 0..<12, using: &rng) {
        case 0 where !changes.deletedSections.isEmpty:
            changes.deletedSections[Int.random(in: changes.deletedSections.indices, using: &rng)] += shift
        case 1 where !changes.insertedSections.isEmpty:
            changes.insertedSections[Int.random(in: changes.insertedSections.indices, using: &rng)].index += shift
        case 2 where !changes.movedSections.isEmpty:
            let index = Int.random(in: changes.movedSections.indices, using: &rng)
            if Bool.random(using: &rng) {
                changes.movedSections[index].from += shift
            } else {
                changes.movedSections[index].to += shift
            }
        case 3 where !changes.deletedItems.isEmpty:
            changes.deletedItems[Int.random(in: changes.deletedItems.indices, using: &rng)].item += shift
        case 4 where !changes.insertedItems.isEmpty:
            let index = Int.random(in: changes.insertedItems.indices, using: &rng)
            if Bool.random(using: &rng) {
                changes.insertedItems[index].at.item += shift
            } else {
                changes.insertedItems[index].at.section += shift
            }
        case 5 where !changes.movedItems.isEmpty:
            let index = Int.random(in: changes.movedItems.indices, using: &rng)
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: changes.movedItems[index].from.item += shift
            case 1: changes.movedItems[index].from.section += shift
            case 2: changes.movedItems[index].to.item += shift
            default: changes.movedItems[index].to.section += shift
            }
        case 6 where !changes.updatedItems.isEmpty:
            let index = Int.random(in: changes.updatedItems.indices, using: &rng)
            if Bool.random(using: &rng) {
                changes.updatedItems[index].from.item += shift
            } else {
                changes.updatedItems[index].to.item += shift
            }
        case 7 where !changes.movedItems.isEmpty:
            changes.movedItems.append(changes.movedItems.randomElement(using: &rng)!)
        case 8 where !changes.insertedItems.isEmpty:
            changes.insertedItems.removeLast()
        case 9 where !changes.deletedItems.isEmpty:
            changes.deletedItems.removeFirst()
        case 10:
            changes.insertedItems.append(
                .init(
                    at: .init(section: Int.random(in: -1...3, using: &rng), item: Int.random(in: -1...4, using: &rng)),
                    id: "item_\(Int.random(in: 0..<60, using: &rng))", summary: nil))
        default:
            changes.updatedItems.append(
                .init(
                    from: .init(
                        section: Int.random(in: -1...3, using: &rng), item: Int.random(in: -1...4, using: &rng)),
                    to: .init(section: Int.random(in: -1...3, using: &rng), item: Int.random(in: -1...4, using: &rng)),
                    summary: "z"))
        }
        return changes
    }

    @Test("damaged changes never trap: apply throws, or gives a result a strict view accepts")
    func damagedChangesNeverTrap() throws {
        var rng = SeededGenerator(seed: 0xA991_7E57)
        var refused = 0
        var accepted = 0
        for pair in 0..<3_000 {
            let old = RandomSnapshots.snapshot(using: &rng)
            let new = RandomSnapshots.successor(of: old, using: &rng)
            let changes = Self.damage(old.changes(to: new), using: &rng)
            var view = StrictListView<String, String, String>(strictness: .format, showing: old)
            do {
                let result = try old.applying(changes)
                accepted += 1
                try view.performBatchUpdates(changes, resultingIn: result)
                #expect(view.snapshot == result, "pair \(pair)")
            } catch {
                refused += 1
                #expect(throws: BatchUpdateError.self, "pair \(pair)") {
                    try view.performBatchUpdates(changes, resultingIn: new)
                }
                #expect(view.snapshot == old, "pair \(pair)")
            }
        }
        #expect(refused > 1_000 && accepted > 100)
    }
}
