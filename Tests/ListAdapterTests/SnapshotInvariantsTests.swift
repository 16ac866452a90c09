import Foundation
import Testing

@testable import ListAdapter

/// A snapshot's index (identifier to path, title to offset, and the item count it gives) must
/// describe its sections. Every snapshot the library makes passes the check, and each way of
/// breaking the index is caught and named.
@Suite("Snapshot: the invariants of the index")
struct SnapshotInvariantsTests {
    /// Two sections, one with an empty title, and identifiers that differ only in their
    /// normalization (two identifiers, as the index keys them literally).
    static func sample() throws -> StringSnapshot {
        try StringSnapshot(sections: [
            .init(title: "A", items: [.init(id: "a", summary: "1"), .init(id: "\u{E9}"), .init(id: "e\u{301}")]),
            .init(title: "", items: [.init(id: "b")]),
            .init(title: "C"),
        ])
    }

    /// `snapshot` with its index replaced, unchecked.
    static func withIndex(
        of snapshot: StringSnapshot,
        paths: (inout IdentifierIndex<String>) -> Void = { _ in },
        titles: (inout [LiteralKey<String>: Int]) -> Void = { _ in }
    ) -> StringSnapshot {
        var pathsByID = snapshot.pathsByID
        var offsetsByTitle = snapshot.offsetsByTitle
        paths(&pathsByID)
        titles(&offsetsByTitle)
        return StringSnapshot(
            uncheckedSections: snapshot.sections, pathsByID: pathsByID, offsetsByTitle: offsetsByTitle)
    }

    @Test("debug builds check every snapshot as it is made; other builds do not")
    func checkingFollowsTheBuild() {
        #if DEBUG
            #expect(StringSnapshot._isConsistencyCheckingEnabled)
        #else
            #expect(!StringSnapshot._isConsistencyCheckingEnabled)
        #endif
    }

    @Test("every way of making a snapshot gives one whose index describes it")
    func validSnapshotsPass() throws {
        let sample = try Self.sample()
        var made: [StringSnapshot] = [
            StringSnapshot(),
            sample,
            try StringSnapshot(
                identifiers: ["x", "y", "z", "w"], sectionTitle: { $0 < "y" ? "late" : "early" }, summary: { $0 }),
            try JSONDecoder().decode(StringSnapshot.self, from: Data(sample.formatJSON().utf8)),
        ]
        var rng = SeededGenerator(seed: 0x1D_EC5)
        for _ in 0..<500 {
            let old = RandomSnapshots.snapshot(using: &rng)
            let new = RandomSnapshots.successor(of: old, using: &rng)
            made += [old, new, try old.applying(old.changes(to: new))]
        }
        for snapshot in made {
            #expect(snapshot._invariantViolation() == nil)
            snapshot._checkInvariants()
        }
        #expect(sample.itemCount == 4)
    }

    struct Corruption: CustomTestStringConvertible, Sendable {
        let name: String
        let corrupt: @Sendable (StringSnapshot) -> StringSnapshot
        let violation: String
        var testDescription: String { name }
    }

    static let corruptions: [Corruption] = [
        Corruption(
            name: "an identifier indexed at another item's path",
            corrupt: { withIndex(of: $0, paths: { $0[LiteralKey("a")] = ItemPath(section: 1, item: 0) }) },
            violation: #"item [0, 0] with identifier "a" is indexed at [1, 0]"#),
        Corruption(
            name: "an identifier indexed past the end of its section",
            corrupt: { withIndex(of: $0, paths: { $0[LiteralKey("b")] = ItemPath(section: 1, item: 1) }) },
            violation: #"item [1, 0] with identifier "b" is indexed at [1, 1]"#),
        Corruption(
            name: "an identifier missing from the index",
            corrupt: { withIndex(of: $0, paths: { $0[LiteralKey("e\u{301}")] = nil }) },
            violation: #"item [0, 2] with identifier "e\#u{301}" is indexed at no path"#),
        Corruption(
            name: "an identifier the sections do not hold",
            corrupt: { withIndex(of: $0, paths: { $0[LiteralKey("gone")] = ItemPath(section: 2, item: 0) }) },
            violation: "the identifier index has 5 entries for 4 items"),
        Corruption(
            name: "a title indexed at another section's offset",
            corrupt: { withIndex(of: $0, titles: { $0[LiteralKey("")] = 2 }) },
            violation: #"section 1 titled "" is indexed at 2"#),
        Corruption(
            name: "a title missing from the index, another in its place",
            corrupt: {
                withIndex(
                    of: $0,
                    titles: {
                        $0[LiteralKey("C")] = nil
                        $0[LiteralKey("c")] = 2
                    })
            },
            violation: #"section 2 titled "C" is indexed at no offset"#),
        Corruption(
            name: "a title the sections do not hold",
            corrupt: { withIndex(of: $0, titles: { $0[LiteralKey("D")] = 3 }) },
            violation: "the title index has 4 entries for 3 sections"),
    ]

    @Test("a corrupted index is caught, and the first broken invariant named", arguments: corruptions)
    func corruptionIsCaught(_ corruption: Corruption) throws {
        let corrupted = corruption.corrupt(try Self.sample())
        #expect(corrupted._invariantViolation() == corruption.violation)
    }

    @Test(
        "the check traps on a corrupted index",
        .enabled(if: StringSnapshot._isConsistencyCheckingEnabled, "release builds compile the check out"))
    func checkTraps() async {
        await #expect(processExitsWith: .failure) {
            let sample = try Self.sample()
            Self.withIndex(of: sample, paths: { $0[LiteralKey("b")] = nil })._checkInvariants()
        }
    }
}
