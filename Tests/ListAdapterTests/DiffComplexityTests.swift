import Synchronization
import Testing

@testable import ListAdapter

/// An identifier that counts how often it is hashed and compared, so the diff's cost can be
/// checked by counting work instead of timing it.
struct CountingID: Hashable, Sendable {
    static let hashes = Atomic<Int>(0)
    static let comparisons = Atomic<Int>(0)
    let value: Int

    static func == (lhs: Self, rhs: Self) -> Bool {
        comparisons.add(1, ordering: .relaxed)
        return lhs.value == rhs.value
    }

    func hash(into hasher: inout Hasher) {
        Self.hashes.add(1, ordering: .relaxed)
        hasher.combine(value)
    }

    static func reset() {
        hashes.store(0, ordering: .relaxed)
        comparisons.store(0, ordering: .relaxed)
    }
}

@Suite("Diff: complexity by counting hashes", .serialized)
struct DiffComplexityTests {
    @Test("each new item costs at most one hash lookup; the old snapshot is never hashed again")
    func oneLookupPerNewItem() throws {
        let count = 20_000
        var rng = SeededGenerator(seed: 7)
        var ids = (0..<count).map(CountingID.init)
        let old = try ListSnapshot<CountingID, Int, Never>(sections: [
            .init(title: "", items: ids.map { .init(id: $0) })
        ])
        // 10% moved (shuffled in place), 10% deleted, 10% inserted.
        ids.removeLast(count / 10)
        for _ in 0..<(count / 20) {
            ids.swapAt(Int.random(in: 0..<ids.count, using: &rng), Int.random(in: 0..<ids.count, using: &rng))
        }
        ids += (count..<(count + count / 10)).map(CountingID.init)
        let new = try ListSnapshot<CountingID, Int, Never>(sections: [
            .init(title: "", items: ids.map { .init(id: $0) })
        ])

        CountingID.reset()
        let changes = old.changes(to: new)
        let hashes = CountingID.hashes.load(ordering: .relaxed)
        let comparisons = CountingID.comparisons.load(ordering: .relaxed)
        #expect(hashes <= new.itemCount)
        // A probe compares at most a few colliding keys; stay linear.
        #expect(comparisons <= 2 * new.itemCount)
        #expect(try old.applying(changes) == new)
    }

    @Test("items that keep their place cost an identifier comparison, not a hash")
    func unchangedListHashesNothing() throws {
        let ids = (0..<5_000).map(CountingID.init)
        let old = try ListSnapshot<CountingID, Int, Never>(sections: [
            .init(title: "", items: ids.map { .init(id: $0) })
        ])
        let new = try ListSnapshot<CountingID, Int, Never>(sections: [
            .init(title: "", items: ids.map { .init(id: $0, summary: 1) })
        ])
        CountingID.reset()
        let changes = old.changes(to: new)
        #expect(CountingID.hashes.load(ordering: .relaxed) == 0)
        #expect(CountingID.comparisons.load(ordering: .relaxed) == ids.count)
        #expect(changes.updatedItems.count == ids.count)
        #expect(try old.applying(changes) == new)
    }
}
