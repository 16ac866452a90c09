import Testing

@testable import ListAdapter

/// Titles, String ids and String summaries compare code point by code point
/// (`LiteralIdentity.swift`); hashes agree with that equality and keep spellings apart.
@Suite("Literal identity of strings")
struct LiteralIdentityTests {
    /// Every spelling of `count` "é"s, precomposed or as "e" + U+0301 each: 2^count strings,
    /// canonically equivalent all.
    static func spellings(of count: Int) -> [String] {
        (0..<(1 << count)).map { mask in
            (0..<count).map { mask & (1 << $0) == 0 ? "\u{E9}" : "e\u{301}" }.joined()
        }
    }

    @Test("spellings of one text are distinct keys, and their hashes differ: no bucket holds them all")
    func spellingsHashApart() throws {
        let spellings = Self.spellings(of: 12)
        #expect(Set(spellings).count == 1)  // To Swift's `==`, one string.
        #expect(Set(spellings.map(LiteralKey.init)).count == spellings.count)
        #expect(Set(spellings.map { LiteralKey($0).hashValue }).count == spellings.count)
        let snapshot = try ListSnapshot<String, String, String>(sections: [
            .init(title: "A", items: spellings.map { .init(id: $0) })
        ])
        #expect(snapshot.itemCount == spellings.count)
        for (offset, spelling) in spellings.enumerated() {
            #expect(snapshot.path(of: spelling) == ItemPath(section: 0, item: offset))
        }
    }

    @Test("equal values hash alike, for strings and for types with their own ==")
    func hashesAgreeWithEquality() {
        let texts = ["", "a", "\u{E9}", "e\u{301}", "\u{212B}", "\u{C5}", String(repeating: "x", count: 40)]
        for first in texts {
            for second in texts {
                let same = LiteralKey(first) == LiteralKey(second)
                #expect(same == first.utf8.elementsEqual(second.utf8))
                if same { #expect(LiteralKey(first).hashValue == LiteralKey(second).hashValue) }
                let items = (
                    ListSnapshot<String, String, String>.Item(id: first),
                    ListSnapshot<String, String, String>.Item(id: second)
                )
                #expect((items.0 == items.1) == same)
                if same { #expect(items.0.hashValue == items.1.hashValue) }
            }
        }
        // Other identifier types keep their own equality: 1 and 1.0 as Double are one value.
        #expect(LiteralKey(1.0) == LiteralKey(1.0 as Double))
        #expect(ListSnapshot<Int, Int, Never>.Item(id: 1, summary: 2) == .init(id: 1, summary: 2))
        #expect(ListSnapshot<Int, Int, Never>.Item(id: 1, summary: 2) != .init(id: 1, summary: 3))
    }
}
