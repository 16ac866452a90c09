import ListAdapter
import Testing

@testable import ListFormat

/// The reader shares the strings of the line before that hold the same bytes; sharing changes
/// no byte of what it reads.
@Suite("Reader: strings shared with the line before")
struct SharingTests {
    /// The usual lines: plain, with meta, revisions, unknown keys, text beyond ASCII, whitespace.
    static let usualLines = [
        #"{"sections": []}"#, #"{"sections":[{"title":"","items":[]}]}"#, ReaderCorpusTests.formatSnapshotLine,
        ReaderCorpusTests.formatRevisionLine,
        #"{"meta": {"commit": "3f2a9c", "reason": "", "": "x"}, "sections": [{"title": "A", "items": [{"id": "a"}]}]}"#,
        #"{"sections": [{"items": [{"summary": "s", "id": "a"}], "title": "A"}], "meta": {"k": "v"}}"#,
        #"{"v": 2, "x": [1, -0, 123456789012345, true, false, null, "\"\\\/\b\f\n\r\t\u00e9\uFFFF", {"a": [[]], "b": {}}], "sections": [{"title": "A", "n": {"deep": [[[{"k": "\u2028"}]]]}, "items": [{"id": "a", "rank": -7, "tags": ["t", "\u0000"], "summary": "s"}]}]}"#,
        #"{"snapshot": {"sections": [{"title": "A", "items": [{"id": "a"}]}], "extra": [0]}, "changes": {}}"#,
        "{\"meta\": {\"ü\": \"ß\"}, \"sections\": [{\"title\": \"Ünïcödé 日本\", \"items\": [{\"id\": \"é\", \"summary\": \"😀 \u{10FFFF}\"}, {\"id\": \"e\u{301}x\", \"summary\": \"\u{212A}\"}, {\"id\": \"\u{7F}\u{2028}\"}]}]}",
        " \t{\r\n\"sections\" : [ { \"title\" : \"A\" , \"items\" : [ ] } ] }\r\n",
        #"{"x": \#(String(repeating: "[", count: 20) + String(repeating: "]", count: 20)), "sections": []}"#,
    ]

    @Test("the usual lines read the same alone and after each other")
    func usualLines() throws {
        var previous: ListSnapshot<String, String, String>?
        for line in Self.usualLines {
            let bytes = Array(line.utf8)
            let alone = try InterchangeFormat.readImportLine(bytes)
            let shared = try bytes.withUnsafeBufferPointer {
                try InterchangeFormat.readImportLine($0, previous: previous)
            }
            #expect(SpelledSnapshot(shared) == SpelledSnapshot(alone), "\(line)")
            previous = alone.snapshot
        }
    }

    @Test("a line before of equal strings in other bytes (é and e + U+0301, K and the KELVIN SIGN) lends none")
    func canonicallyEquivalentPrevious() throws {
        let line = Array("{\"sections\": [{\"title\": \"K\", \"items\": [{\"id\": \"é\", \"summary\": \"Å;\"}]}]}".utf8)
        let previous = try ListSnapshot<String, String, String>(sections: [
            .init(title: "\u{212A}", items: [.init(id: "e\u{301}", summary: "\u{212B}\u{37E}")])
        ])
        // Equal strings to Swift's `==` (canonical equivalence), but other code points: to the
        // snapshot, another title, id and summary.
        let respelled = Respelling.respelled(previous)
        #expect(respelled.sections[0].title == previous.sections[0].title)
        #expect(respelled != previous)
        let read = SpelledSnapshot(try InterchangeFormat.readImportLine(line))
        #expect(
            read.sections == [
                .init(title: Array("K".utf8), items: [.init(id: [0xC3, 0xA9], summary: Array("Å;".utf8))])
            ])
        for lender in [previous, respelled] {
            let shared = try line.withUnsafeBufferPointer { try InterchangeFormat.readImportLine($0, previous: lender) }
            #expect(SpelledSnapshot(shared) == read)
        }
    }
}
