import Synchronization
import Testing

@testable import ListAdapter

/// An identifier whose hashes fall into a few values, so that the index's probing, growth and
/// removal (the back shift of a run, the last entry moving into a freed place) meet collisions.
private struct CollidingID: Hashable, Sendable {
    let value: Int

    func hash(into hasher: inout Hasher) {
        hasher.combine(value % 5)
    }
}

/// An identifier that counts how often it is hashed, for the one test that reads the count.
private struct HashCountingID: Hashable, Sendable {
    static let hashes = Atomic<Int>(0)
    let value: Int

    func hash(into hasher: inout Hasher) {
        Self.hashes.add(1, ordering: .relaxed)
        hasher.combine(value)
    }
}

/// The snapshot's identifier index behaves as the dictionary it replaces, and the diff reads
/// the hashes the snapshots hold instead of hashing again.
@Suite("Snapshot: the identifier index")
struct IdentifierIndexTests {
    @Test("random insertions, updates and removals agree with a dictionary, collisions included")
    func agreesWithADictionary() {
        var rng = SeededGenerator(seed: 34)
        var index = IdentifierIndex<CollidingID>()
        var model: [CollidingID: ItemPath] = [:]
        for step in 0..<20_000 {
            let key = CollidingID(value: Int.random(in: 0..<300, using: &rng))
            switch Int.random(in: 0..<4, using: &rng) {
            case 0:
                #expect(index.removeValue(forKey: LiteralKey(key)) == model.removeValue(forKey: key))
            case 1:
                let path = ItemPath(section: step % 7, item: step)
                #expect(index.updateValue(path, forKey: LiteralKey(key)) == model.updateValue(path, forKey: key))
            case 2:
                let path = ItemPath(section: 0, item: step)
                let hash = IdentifierIndex<CollidingID>.hash(of: key)
                let existing = index.insertIfAbsent(key, hash: hash, path: path)
                #expect(existing == model[key])
                if existing == nil { model[key] = path }
            default:
                #expect(index[LiteralKey(key)] == model[key])
            }
            #expect(index.count == model.count)
        }
        for value in 0..<300 {
            let key = CollidingID(value: value)
            #expect(index[LiteralKey(key)] == model[key])
        }
    }

    @Test("literally different strings are different keys, under the same index")
    func keysAreLiteral() {
        var index = IdentifierIndex<String>(minimumCapacity: 2)
        index[LiteralKey("\u{E9}")] = ItemPath(section: 0, item: 0)
        index[LiteralKey("e\u{301}")] = ItemPath(section: 0, item: 1)
        #expect(index.count == 2)
        #expect(index[LiteralKey("\u{E9}")] == ItemPath(section: 0, item: 0))
        #expect(index[LiteralKey("e\u{301}")] == ItemPath(section: 0, item: 1))
    }

    @Test("the diff hashes no identifier when both snapshots were built from sections")
    func diffHashesNothing() throws {
        var rng = SeededGenerator(seed: 35)
        let ids = (0..<5_000).map(CountingID.init)
        let old = try ListSnapshot<CountingID, Int, Never>(sections: [
            .init(title: "", items: ids.map { .init(id: $0) })
        ])
        var newIDs = ids.dropLast(500) + (5_000..<5_500).map(CountingID.init)
        newIDs.shuffle(using: &rng)
        let new = try ListSnapshot<CountingID, Int, Never>(sections: [
            .init(title: "", items: newIDs.map { .init(id: $0) })
        ])
        CountingID.reset()
        let changes = old.changes(to: new)
        #expect(CountingID.hashes.load(ordering: .relaxed) == 0)
        #expect(try old.applying(changes) == new)
    }

    @Test("snapshots made without their hashes diff the same as with them", arguments: 0..<200)
    func diffWithoutHashes(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let old = RandomSnapshots.snapshot(using: &rng, maxItems: 40)
        let new = RandomSnapshots.successor(of: old, using: &rng)
        func withoutHashes(_ snapshot: StringSnapshot) -> StringSnapshot {
            StringSnapshot(
                uncheckedSections: snapshot.sections, pathsByID: snapshot.pathsByID,
                offsetsByTitle: snapshot.offsetsByTitle)
        }
        #expect(old.indexFollowsDisplayOrder && new.indexFollowsDisplayOrder)
        let expected = old.changes(to: new)
        #expect(withoutHashes(old).changes(to: new) == expected)
        #expect(old.changes(to: withoutHashes(new)) == expected)
        #expect(withoutHashes(old).changes(to: withoutHashes(new)) == expected)
    }

    @Test("an index said to follow the display order that does not is caught by the invariants check")
    func wrongOrderIsCaught() throws {
        let snapshot = try StringSnapshot(sections: [.init(title: "", items: [.init(id: "a"), .init(id: "b")])])
        #expect(snapshot.indexFollowsDisplayOrder)
        #expect(snapshot._invariantViolation() == nil)
        var reversed = IdentifierIndex<String>()
        reversed[LiteralKey("b")] = ItemPath(section: 0, item: 1)
        reversed[LiteralKey("a")] = ItemPath(section: 0, item: 0)
        let unordered = StringSnapshot(
            uncheckedSections: snapshot.sections, pathsByID: reversed, offsetsByTitle: snapshot.offsetsByTitle,
            indexFollowsDisplayOrder: true)
        #expect(
            unordered._invariantViolation()
                == "the identifier index's entry 0 is not item [0, 0], as the display order has it")
        let unclaimed = StringSnapshot(
            uncheckedSections: snapshot.sections, pathsByID: reversed, offsetsByTitle: snapshot.offsetsByTitle)
        #expect(unclaimed._invariantViolation() == nil)
    }

    @Test("an index built from hashes computed earlier hashes nothing, and equals the one that hashes")
    func indexFromKeptHashes() throws {
        typealias Snapshot = ListSnapshot<HashCountingID, Int, Never>
        let sections: [Snapshot.Section] = (0..<4).map { section in
            .init(title: "\(section)", items: (0..<50).map { .init(id: HashCountingID(value: section * 50 + $0)) })
        }
        let hashes = sections.map { $0.items.map { IdentifierIndex<HashCountingID>.hash(of: $0.id) } }
        let before = HashCountingID.hashes.load(ordering: .relaxed)
        let (index, duplicate) = IdentifierIndex<HashCountingID>.indexing(sections, itemCount: 200, hashes: hashes)
        #expect(HashCountingID.hashes.load(ordering: .relaxed) == before)
        #expect(duplicate == nil)
        let built = try Snapshot(sections: sections)
        let kept = try Snapshot(sections: sections, itemHashes: hashes)
        #expect(kept == built && kept.indexFollowsDisplayOrder)
        #expect(kept._invariantViolation() == nil)
        for section in sections {
            for item in section.items {
                #expect(index[LiteralKey(item.id)] == built.path(of: item.id))
                #expect(kept.path(of: item.id) == built.path(of: item.id))
            }
        }
        // A repeated identifier is caught with its hashes given, as without them.
        var repeated = sections
        repeated[2].items[7] = repeated[0].items[3]
        let repeatedHashes = repeated.map { $0.items.map { IdentifierIndex<HashCountingID>.hash(of: $0.id) } }
        let withoutHashes = #expect(throws: ListSnapshotError.self) { try Snapshot(sections: repeated) }
        let withHashes = #expect(throws: ListSnapshotError.self) {
            try Snapshot(sections: repeated, itemHashes: repeatedHashes)
        }
        #expect(withHashes == withoutHashes && withHashes?.code == .duplicateItemID)
    }
}
