import ListAdapter
import Testing

@testable import ListFormat

/// The hand-picked corpus of import lines: objects of the schema with every kind of value in
/// every place, strings with every kind of byte, whitespace and what is not whitespace between
/// tokens, lines around the depth limit, and text in other encodings. The reader must accept
/// and refuse exactly the lines of the reference readers (a fast path held byte for byte to a
/// checked path through `JSONDecoder`), with the same snapshots: ``verdicts`` and ``digests``
/// hold theirs.
@Suite("Reader: the hand-picked corpus")
struct ReaderCorpusTests {
    /// A line for each object of the schema (line, meta, snapshot, section, item); `§` marks the
    /// places where ``members`` go in, one place at a time: first, and last, where the comma
    /// that ends a member is a trailing comma.
    static let memberPlaces = [
        #"{§"sections": [{"title": "A", "items": [{"id": "a", "summary": "s"}]}]§}"#,
        #"{"meta": {§"k": "v"§}, "sections": []}"#,
        #"{"meta": {}, "snapshot": {§"sections": [{"title": "A", "items": [{"id": "a"}]}]§}}"#,
        #"{"sections": [{§"title": "A", "items": [{"id": "a", "summary": "s"}]§}]}"#,
        #"{"sections": [{"title": "A", "items": [{§"id": "a", "summary": "s"§}]}]}"#,
    ]

    /// Values for a key the schema does not read: every kind JSON has, and near misses.
    static let values = [
        "0", "-0", "7", "-12", "123456789012345", "1234567890123456", "123456789012345678901234567890", "01", "-01",
        "00", "1.5", "-0.0", "1e3", "1E+3", "2.5e-3", "1e400", "1.", ".5", "1e", "1e+", "-", "+1", "--1", "0x10",
        "NaN", "Infinity", "true", "false", "null", "tru", "nul", "fals", "nulll", "truex", "True", "NULL", "",
        #""""#, #""s""#, #""\" \\ \/ \b \f \n \r \t""#, #""\u0000 \u00e9 \uFFFF \u2028 \u001b""#,
        #""\ud83d\ude00""#, #""\uD83D\uDE00""#, #""\ud800""#, #""\udc00""#, #""\ud800\u0041""#, #""\udc00\ud800""#,
        #""\ud800\ud800""#, #""\ud83d x""#, #""\u12""#, #""\uGGGG""#, #""\x""#, #""\'""#, #""a\""#, "\"é😀\"",
        "[]", "{}", "[1, [2, [3]], {}]", #"{"a": {"b": [true, null, -1]}, "c": "d", "": ""}"#, #"{"a": 1, "a": 2}"#,
        "[1,]", #"{"a": 1,}"#, "[,]", "[1 2]", #"{"a" 1}"#, "{a: 1}", "{'a': 1}", #"{"\u0061": 1}"#, "é", "[",
    ]

    /// The members put at each of ``memberPlaces``' places: a key the schema does not read with
    /// each of ``values``, a repeated unknown key, and a second copy of each key of the schema
    /// (some spelled with escapes).
    static let members =
        values.map { #""x": \#($0), "# }
        + [
            #""x": 1, "x": [], "#, #""sections": [], "#, #""meta": {}, "#, #""snapshot": {"sections": []}, "#,
            #""k": "w", "#, #""title": "B", "#, #""items": [], "#, #""id": "b", "#, #""summary": "t", "#,
            #""summary": null, "#, #""\u0069d": "b", "#, #""\u0073ections": [], "#, #""\u006b": "w", "#,
        ]

    /// A line for each kind of string the parser reads or skips, `§` inside the string.
    static let stringPlaces = [
        #"{"sections": [{"title": "a§b", "items": []}]}"#, #"{"sections": [{"title": "A", "items": [{"id": "§"}]}]}"#,
        #"{"sections": [{"title": "A", "items": [{"id": "a", "summary": "§z"}]}]}"#,
        #"{"meta": {"§": "v"}, "sections": []}"#, #"{"meta": {"k": "§"}, "sections": []}"#,
        #"{"§": 1, "sections": []}"#, #"{"x": "§", "sections": []}"#, #"{"x": [{"y": "a§"}], "sections": []}"#,
        #"{"snapshot": {"x": "§", "sections": []}}"#,
        #"{"sections": [{"title": "A", "items": [{"id": "a", "x": {"§": 0}}]}]}"#,
    ]

    /// Bytes to put inside strings: UTF-8 beyond ASCII, bytes that are not UTF-8 (overlong forms,
    /// surrogates, past U+10FFFF, cut short, stray continuation bytes), raw control characters and
    /// escapes (which the parser reads in skipped strings and declines in read ones).
    static let stringBytes: [[UInt8]] =
        ["é", "e\u{301}", "\u{212A}", "😀", "\u{10FFFF}", "\u{FFFF}", "\u{FEFF}", "\u{2028}", "\u{7F}", "\u{80}"]
        .map { Array($0.utf8) }
        + [
            [0xFF], [0xFE], [0x80], [0xBF], [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF],
            [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF], [0xF0, 0x80, 0x80, 0x80], [0xF4, 0x90, 0x80, 0x80],
            [0xF5, 0x80, 0x80, 0x80], [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xC3, 0x41], [0x00], [0x01], [0x09],
            [0x0A], [0x0D], [0x1F],
        ]
        + [#"\n"#, #"\u00e9"#, #"\""#, #"\\"#, #"\/"#, #"\ud800"#, #"\udfff"#, #"\ud83d\ude00"#, #"\u0000"#, #"\"#]
        .map { Array($0.utf8) }

    /// Places between tokens, for whitespace and what is not whitespace.
    static let gaps = #"§{§"sections"§:§[§{"title":"A","items":[{"id":"a"}§,§{"id":"b"}]}§]§}§"#

    /// Bytes between tokens: JSON's whitespace, and bytes that look like it and are not.
    static let gapBytes: [[UInt8]] = [
        [0x20], [0x09], [0x0D], [0x0A], [0x0D, 0x0A], [0x0C], [0x0B], [0x00], [0xC2, 0xA0], [0xEF, 0xBB, 0xBF],
        Array("/**/".utf8), Array(",".utf8), Array("x".utf8), [0x80],
    ]

    /// FORMAT.md's snapshot line.
    static let formatSnapshotLine =
        #"{"meta": {"commit": "3f2a9c"}, "sections": [{"title": "Section One", "items": [{"id": "item_a", "summary": "Title A, Section One"}, {"id": "item_c"}]}, {"title": "Section Two", "items": [{"id": "item_b", "summary": "Title B, Section Two"}]}]}"#

    /// FORMAT.md's revision line, with its example changes.
    static let formatRevisionLine =
        #"{"revision": 1, "time": "2026-11-20T10:00:00.000Z", "meta": {}, "snapshot": {"sections": [{"title": "New", "items": [{"id": "x", "summary": "s"}]}]}, "changes": {"sections": {"deleted": [2], "inserted": [{"index": 0, "title": "New", "items": [{"id": "x", "summary": "s"}]}], "moved": [{"from": 0, "to": 3}]}, "items": {"deleted": [[1, 4]], "inserted": [{"at": [1, 0], "id": "y", "summary": "t"}], "moved": [{"from": [1, 2], "to": [2, 5]}], "updated": [{"from": [1, 3], "to": [1, 1], "summary": "u"}]}}}"#

    /// Whole lines.
    static let lines = [
        "", " ", "\r", "{}", "[]", "null", "1", #""x""#, #"[{"sections": []}]"#, #"{"sections": []}"#,
        " \t\r\n{\r\n\"sections\"\t:\r[ ]\n}\r\n ", #"{"sections":[]}x"#, #"{"sections": []}}"#, #"{"sections": []},"#,
        #"{"sections": []}{}"#, #"{"sections": []} 1"#, #"{"sections": []"#, #"{"sections": ["#, #"{"sections""#, "{",
        formatSnapshotLine, formatRevisionLine,
        #"{"snapshot": {"sections": []}}"#, #"{"snapshot": {}}"#, #"{"snapshot": null}"#, #"{"snapshot": []}"#,
        #"{"snapshot": [], "sections": []}"#, #"{"sections": [], "snapshot": {"sections": []}}"#,
        #"{"snapshot": {"sections": []}, "sections": []}"#, #"{"sections": null, "snapshot": {"sections": []}}"#,
        #"{"sections": [], "snapshot": 5}"#, #"{"snapshot": 5, "sections": []}"#,
        #"{"sections": [], "snapshot": null}"#,
        #"{"snapshot": {"sections": [], "meta": {"a": 1}}, "meta": {"b": "c"}}"#, #"{"meta": {}}"#,
        #"{"meta": null, "sections": []}"#, #"{"meta": [], "sections": []}"#, #"{"meta": {"a": 1}, "sections": []}"#,
        #"{"meta": {"a": null}, "sections": []}"#, #"{"sections": {}}"#, #"{"sections": "x"}"#, #"{"sections": [1]}"#,
        #"{"sections": [null]}"#, #"{"sections": [{"items": []}]}"#, #"{"sections": [{"title": "A"}]}"#,
        #"{"sections": [{"title": 1, "items": []}]}"#, #"{"sections": [{"title": null, "items": []}]}"#,
        #"{"sections": [{"title": "A", "items": {}}]}"#, #"{"sections": [{"title": "A", "items": null}]}"#,
        #"{"sections": [{"title": "A", "items": [1]}]}"#, #"{"sections": [{"title": "A", "items": [[]]}]}"#,
        #"{"sections": [{"title": "A", "items": [{}]}]}"#, #"{"sections": [{"title": "A", "items": [{"id": 1}]}]}"#,
        #"{"sections": [{"title": "A", "items": [{"id": null}]}]}"#,
        #"{"sections": [{"title": "A", "items": [{"summary": "s"}]}]}"#,
        #"{"sections": [{"title": "A", "items": [{"id": "a", "summary": 1}]}]}"#,
        #"{"sections": [{"title": "A", "items": [{"id": "a", "summary": true}]}]}"#,
        #"{"sections": [{"title": "A", "items": [{"id": "a", "summary": null}]}]}"#,
        #"{"sections": [{"title": "A", "items": [{"id": "a"}, {"id": "a"}]}]}"#,
        #"{"sections": [{"title": "A", "items": [{"id": "a"}]}, {"title": "B", "items": [{"id": "a"}]}]}"#,
        #"{"sections": [{"title": "A", "items": []}, {"title": "A", "items": []}]}"#,
        "{\"sections\": [{\"title\": \"A\", \"items\": [{\"id\": \"é\"}, {\"id\": \"e\u{301}\"}]}]}",
        "{\"sections\": [{\"title\": \"A\", \"items\": [{\"id\": \"\u{C5}\"}]}, {\"title\": \"B\", \"items\": [{\"id\": \"\u{212B}\"}]}]}",
        "{\"sections\": [{\"title\": \"K\", \"items\": []}, {\"title\": \"\u{212A}\", \"items\": []}]}",
        "{\"meta\": {\"é\": \"1\", \"e\u{301}\": \"2\"}, \"sections\": []}",
        "{\"meta\": {\"K\": \"1\", \"\u{212A}\": \"2\"}, \"sections\": []}",
        "{\"sections\": [{\"title\": \"é\", \"items\": [{\"id\": \"e\u{301}\"}]}, {\"title\": \"e\u{301}\", \"items\": []}]}",
    ]

    /// Lines that nest arrays and objects 56 to 66 deep (around the depth the reference readers'
    /// fast path reads) under keys the schema does not read, at three depths of the
    /// schema, and around the reader's depth limit (512 arrays inside the line's object).
    static let deepLines =
        (56...66).flatMap { depth in
            let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            let objects = String(repeating: #"{"a":"#, count: depth) + "0" + String(repeating: "}", count: depth)
            return [arrays, objects].flatMap { deep in
                [
                    #"{"x": \#(deep), "sections": []}"#, #"{"snapshot": {"x": \#(deep), "sections": []}}"#,
                    #"{"sections": [{"title": "A", "items": [{"id": "a", "x": \#(deep)}]}]}"#,
                ]
            }
        }
        + [510, 511, 512, 600].map { depth in
            #"{"x": \#(String(repeating: "[", count: depth) + String(repeating: "]", count: depth)), "sections": []}"#
        }

    /// `template` with `piece` at each of its `§` in turn (the other `§` left out).
    static func pieces(_ template: String, _ piece: [UInt8]) -> [[UInt8]] {
        let parts = template.split(separator: "§", omittingEmptySubsequences: false).map { Array($0.utf8) }
        return (1..<parts.count).map { place in
            parts.indices.reduce(into: []) { line, index in
                if index == place { line += piece }
                line += parts[index]
            }
        }
    }

    /// The hand-picked corpus: every line above, UTF-16 and UTF-32 and byte order marks.
    static var corpus: [[UInt8]] {
        let valid = #"{"sections": [{"title": "A", "items": [{"id": "a"}]}]}"#
        let utf16 = Array(valid.utf16)
        let utf32 = valid.unicodeScalars.map(\.value)
        let encoded: [[UInt8]] = [
            utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }, utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] },
            [0xFF, 0xFE] + utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] },
            [0xFE, 0xFF] + utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] },
            utf32.flatMap { [UInt8($0 & 0xFF), 0, 0, 0] }, [0xEF, 0xBB, 0xBF] + Array(valid.utf8),
            [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array(valid.utf8), [0x20, 0xEF, 0xBB, 0xBF] + Array(valid.utf8),
        ]
        return (lines + deepLines).map { Array($0.utf8) } + encoded
            + memberPlaces.flatMap { place in members.flatMap { pieces(place, Array($0.utf8)) } }
            + stringPlaces.flatMap { place in stringBytes.flatMap { pieces(place, $0) } }
            + gapBytes.flatMap { pieces(gaps, $0) }
    }

    /// `+` for each line of ``corpus`` accepted, `-` for each refused, 100 lines a row.
    static let verdicts = [
        "---------++---------+++----------+-+---------------------+---+++--++++++++++++++++++++++++++++++++++",
        "+++++++++++++++++++++++++++++++++++-------+--+-+-+-+-+-+-+-------+-+-+-+-+-+---------------------+-+",
        "-+-----------------+-+-+-+-+-+-----------------------+-+-+-+-+-+---------------+-----+---+---+-+-+-+",
        "-+-+-+---+---------------------------------------------------------------------------+-+-+-+-+-+----",
        "-------------------+-----------------------------------------+---+-+---+-----+-+-+-+-+-+-+-------+-+",
        "-+-+-+-+---------------------+-+-+-----------------+-+-+-+-+-+-----------------------+-+-+-+-+-+----",
        "-----------+-----+---+-+-+-+-+-+-+-+-+---+-+-+-+-+-+-+-+-------+-+-+-+-+-+---------------------+-+-+",
        "-----------------+-+-+-+-+-+-----------------------+-+-+-+-+-+---------------+-----+-+-+-+-+-----+-+",
        "-+-+-+-+-+-+-+-+-+-+-+-------+-+-+-+-+-+---------------------+-+-+-----------------+-+-+-+-+-+------",
        "-----------------+-+-+-+-+-+---------------+-----+-+-+-+-+-+-+---------+-+-++++++++++---------------",
        "--------+++++--+++++++++++++-----------------------+++++--++-++++++++++-----------------------+++++-",
        "-++-++++++++++-----------------------+++++--++-++++++++++-----------------------+++++--++-++++++++++",
        "-----------------------+++++--++-++++++++++-----------------------+++++--++-++++++++++--------------",
        "---------+++++--++-++++++++++-----------------------+++++--++-++++++++++-----------------------+++++",
        "--++-++++++++++++++++++++++++++++++++++++++++++++++++++----------------------------------------+----",
        "---------------------------------------------",
    ]

    /// For each 100 lines of ``corpus``: FNV-1a of each line's verdict, `-` for a refused line or
    /// the FNV-1a of its ``SpelledSnapshot`` description, each followed by a line feed.
    static let digests = [
        "95f4f9987ef8c16",
        "a046f969e3bd36b",
        "8f876efdc38e932d",
        "5d0ed1dc0904393e",
        "53351e3ea3963af",
        "13700827a814baae",
        "89c3b52d53983b09",
        "3b32d2043fb34821",
        "d95cd9a5e09727dd",
        "ffdcfa60fdffec1c",
        "a5eefc22f5e8a29",
        "131222746612d2db",
        "3eabb8ca90d414cb",
        "e55a5799e4f2c944",
        "e027624220b0aa2f",
        "5e01bccfcc7ae28e",
    ]

    @Test("each line is accepted or refused as before, and accepted lines give the same snapshots")
    func verdictsHold() {
        let lines = Self.corpus
        let expected = Array(Self.verdicts.joined())
        #expect(lines.count == expected.count)
        var chunk = ""
        var previous: ListSnapshot<String, String, String>?
        for (index, line) in lines.enumerated() {
            let read = try? InterchangeFormat.readImportLine(line)
            #expect((read != nil) == (expected[index] == "+"), "line \(index): \(Shown.bytes(line))")
            chunk += (read.map { FNV1a.hex(SpelledSnapshot($0).description) } ?? "-") + "\n"
            if index % 100 == 99 || index == lines.count - 1 {
                #expect(FNV1a.hex(chunk) == Self.digests[index / 100], "lines \(index / 100 * 100) to \(index)")
                chunk = ""
            }
            // The line before lends strings, never a byte of the result.
            if let read {
                for lender in [previous, read.snapshot].compactMap({ $0 }).flatMap({ [$0, Respelling.respelled($0)] }) {
                    let shared = line.withUnsafeBufferPointer {
                        try? InterchangeFormat.readImportLine($0, previous: lender)
                    }
                    #expect(shared.map(SpelledSnapshot.init) == SpelledSnapshot(read), "line \(index)")
                }
                previous = read.snapshot
            }
        }
    }
}
