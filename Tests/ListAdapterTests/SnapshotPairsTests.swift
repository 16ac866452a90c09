import PropertyBased
import Testing

@testable import ListAdapter

/// The pairs the diff's property checks draw, and the steps that shrink a failing one.
@Suite("Snapshot pairs for property checks")
struct SnapshotPairsTests {
    /// What every shrinking step lowers: titles + ids + 3 × differing summaries + summaries, item
    /// and section summaries alike.
    static func size(_ pair: SnapshotPair) -> Int {
        var titles = Set(pair.old.sections.map(\.title))
        titles.formUnion(pair.new.sections.map(\.title))
        let oldItems = pair.old.sections.flatMap(\.items)
        let newItems = pair.new.sections.flatMap(\.items)
        let ids = Set(oldItems.map(\.id)).union(newItems.map(\.id))
        let oldSummaries = Dictionary(uniqueKeysWithValues: oldItems.map { ($0.id, $0.summary) })
        let differing = newItems.filter { item in oldSummaries[item.id].map { $0 != item.summary } ?? false }.count
        let summaries = (oldItems + newItems).filter { $0.summary != nil }.count
        let oldSectionSummaries = Dictionary(uniqueKeysWithValues: pair.old.sections.map { ($0.title, $0.summary) })
        let differingSections = pair.new.sections.filter { section in
            oldSectionSummaries[section.title].map { $0 != section.summary } ?? false
        }.count
        let sectionSummaries = (pair.old.sections + pair.new.sections).filter { $0.summary != nil }.count
        return titles.count + ids.count + 3 * (differing + differingSections) + summaries + sectionSummaries
    }

    /// A pair one step smaller than a failing one, as the property checker asks for until none
    /// fails: the loop `propertyCheck` runs, here without Swift Testing's issue handling.
    static func shrunk(_ pair: SnapshotPair, whileFailing fails: (SnapshotPair) -> Bool) -> SnapshotPair {
        var pair = pair
        while let smaller = pair.smallerPairs().first(where: fails) { pair = smaller }
        return pair
    }

    @Test("a generator draws the pairs of its seed in order, whatever the checker's generator")
    func seededPairs() {
        let first = SnapshotPairs.generator(seed: 3)
        let second = SnapshotPairs.generator(seed: 3)
        var checkerA = Xoshiro(seed: (1, 2, 3, 4))
        var checkerB = Xoshiro(seed: (5, 6, 7, 8))
        var rng = SeededGenerator(seed: 3)
        for index in 0..<100 {
            let a = first.run(using: &checkerA)
            let b = second.run(using: &checkerB)
            let old = RandomSnapshots.snapshot(using: &rng)
            let new = RandomSnapshots.successor(of: old, using: &rng)
            #expect(a.index == index && b.index == index && !a.isShrunk)
            #expect(a.old == old && a.new == new && b.old == old && b.new == new, "pair \(index)")
        }
    }

    @Test("every step is smaller, and a pair with nothing in it has no smaller pair")
    func stepsShrink() {
        var rng = SeededGenerator(seed: 0x5A1A_11E5)
        for _ in 0..<300 {
            let old = RandomSnapshots.snapshot(using: &rng)
            let pair = SnapshotPair(
                old: old, new: RandomSnapshots.successor(of: old, using: &rng), index: 0, seed: 0)
            let size = Self.size(pair)
            for smaller in pair.smallerPairs() {
                #expect(Self.size(smaller) < size, "\(smaller.testDescription) from \(pair.testDescription)")
                #expect(smaller.isShrunk)
            }
        }
        let empty = SnapshotPair(old: StringSnapshot(), new: StringSnapshot(), index: 0, seed: 0)
        #expect(empty.smallerPairs().isEmpty)
    }

    @Test("a pair whose diff moves two items shrinks to at most three items and no summaries")
    func shrinksToTheCore() throws {
        var rng = SeededGenerator(seed: 0x5EED_2026)
        let fails = { (pair: SnapshotPair) in pair.old.changes(to: pair.new).movedItems.count >= 2 }
        var failing: SnapshotPair?
        for index in 0..<1_000 where failing == nil {
            let old = RandomSnapshots.snapshot(using: &rng)
            let pair = SnapshotPair(
                old: old, new: RandomSnapshots.successor(of: old, using: &rng), index: index, seed: 0x5EED_2026)
            if fails(pair) { failing = pair }
        }
        let pair = Self.shrunk(try #require(failing), whileFailing: fails)
        #expect(fails(pair))
        // Two moves need two items that change section, or three in one section.
        let ids = Set((pair.old.sections + pair.new.sections).flatMap(\.items).map(\.id))
        #expect(ids.count <= 3 && pair.old.sections.count <= 2, "\(pair.testDescription)")
        #expect(pair.old.sections.flatMap(\.items).allSatisfy { $0.summary == nil }, "\(pair.testDescription)")
    }
}
