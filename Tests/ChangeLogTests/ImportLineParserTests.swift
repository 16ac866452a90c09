import Foundation
import ListAdapter
import Testing

@testable import ChangeLog

/// The import's fast path against its authority: for every line, ``ImportLineParser`` returns
/// exactly what ``CheckedJSON`` decodes, byte for byte, or declines; and it declines every line
/// the checked path refuses. The line before's snapshot, which the parser takes strings from,
/// never changes a byte of the result.
@Suite("Import line parser")
struct ImportLineParserTests {
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

    /// Lines that nest arrays and objects around the parser's depth limit, under keys the schema
    /// does not read at three depths of the schema, and around the depth the checked path refuses.
    static let deepLines =
        (ImportLineParser.depthLimit - 8...ImportLineParser.depthLimit + 2).flatMap { depth in
            let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            let objects = String(repeating: #"{"a":"#, count: depth) + "0" + String(repeating: "}", count: depth)
            return [arrays, objects].flatMap { deep in
                [
                    #"{"x": \#(deep), "sections": []}"#, #"{"snapshot": {"x": \#(deep), "sections": []}}"#,
                    #"{"sections": [{"title": "A", "items": [{"id": "a", "x": \#(deep)}]}]}"#,
                ]
            }
        }
        // Around the depth `JSONDecoder` refuses (512 arrays inside the line's object), and past it.
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

    @Test("on the hand-picked corpus, the parser gives the checked path's snapshot byte for byte, or declines")
    func handPickedCorpus() {
        var tally = ImportLineAgreement.Tally()
        var previous: LogSnapshot?
        for line in Self.corpus {
            previous = ImportLineAgreement.check(line, previous: previous, tally: &tally) ?? previous
        }
        #expect(tally.taken > 200 && tally.declined > 100 && tally.refused > 500, "\(tally)")
    }

    /// Lines that hold both a snapshot line's `sections` and a revision line's `snapshot`, valid
    /// or not, in either order, with `meta` or not.
    static let snapshotAndRevisionLines = [
        #"{"sections": [], "snapshot": 5}"#, #"{"snapshot": 5, "sections": []}"#,
        #"{"sections": [], "snapshot": {"sections": []}}"#,
        #"{"snapshot": {"sections": [{"title": "A", "items": []}]}, "sections": [{"title": "B", "items": []}]}"#,
        #"{"meta": {"k": "v"}, "sections": [], "snapshot": null}"#, #"{"sections": 1, "snapshot": []}"#,
    ]

    /// Either path used to take `sections` and ignore `snapshot`, even a `snapshot` of no snapshot.
    @Test("a line with both `sections` and `snapshot` is refused, saying so; the fast path declines it")
    func snapshotAndRevisionLine() {
        var tally = ImportLineAgreement.Tally()
        for line in Self.snapshotAndRevisionLines {
            ImportLineAgreement.check(Array(line.utf8), previous: nil, tally: &tally)
            let error = #expect(throws: SnapshotImportError.self, "\(line)") {
                try SnapshotImporter.decode(line: Data(line.utf8), lineNumber: 4)
            }
            #expect(
                error?.description
                    == #"line 4: the object holds both "sections", as a snapshot line does, and "snapshot", as a "#
                    + "revision line does; it may hold one of the two",
                "\(line)")
        }
        #expect(tally.refused == Self.snapshotAndRevisionLines.count, "\(tally)")
    }

    /// Lines the fast path must take, or the agreement above would hold by declining everything.
    static let usualLines = [
        #"{"sections": []}"#, #"{"sections":[{"title":"","items":[]}]}"#, formatSnapshotLine, formatRevisionLine,
        #"{"meta": {"commit": "3f2a9c", "reason": "", "": "x"}, "sections": [{"title": "A", "items": [{"id": "a"}]}]}"#,
        #"{"sections": [{"items": [{"summary": "s", "id": "a"}], "title": "A"}], "meta": {"k": "v"}}"#,
        #"{"v": 2, "x": [1, -0, 123456789012345, true, false, null, "\"\\\/\b\f\n\r\t\u00e9\uFFFF", {"a": [[]], "b": {}}], "sections": [{"title": "A", "n": {"deep": [[[{"k": "\u2028"}]]]}, "items": [{"id": "a", "rank": -7, "tags": ["t", "\u0000"], "summary": "s"}]}]}"#,
        #"{"snapshot": {"sections": [{"title": "A", "items": [{"id": "a"}]}], "extra": [0]}, "changes": {}}"#,
        "{\"meta\": {\"ü\": \"ß\"}, \"sections\": [{\"title\": \"Ünïcödé 日本\", \"items\": [{\"id\": \"é\", \"summary\": \"😀 \u{10FFFF}\"}, {\"id\": \"e\u{301}x\", \"summary\": \"\u{212A}\"}, {\"id\": \"\u{7F}\u{2028}\"}]}]}",
        " \t{\r\n\"sections\" : [ { \"title\" : \"A\" , \"items\" : [ ] } ] }\r\n",
        #"{"x": \#(String(repeating: "[", count: 20) + String(repeating: "]", count: 20)), "sections": []}"#,
    ]

    @Test("the fast path takes the usual lines: plain, with meta, revisions, unknown keys, text beyond ASCII")
    func usualLinesTakeTheFastPath() {
        var tally = ImportLineAgreement.Tally()
        for line in Self.usualLines {
            ImportLineAgreement.check(Array(line.utf8), previous: nil, tally: &tally)
            #expect(ImportLineAgreement.parse(Array(line.utf8)) != nil, "\(line)")
        }
        #expect(tally.taken == Self.usualLines.count)
    }

    @Test("a line before of equal strings in other bytes (é and e + U+0301, K and the KELVIN SIGN) lends none")
    func canonicallyEquivalentPrevious() throws {
        let line = Array("{\"sections\": [{\"title\": \"K\", \"items\": [{\"id\": \"é\", \"summary\": \"Å;\"}]}]}".utf8)
        let previous = try snapshot([("\u{212A}", ["e\u{301}:\u{212B}\u{37E}"])])
        // Equal strings to Swift's `==` (canonical equivalence), but other code points: to the
        // snapshot, another title, id and summary.
        let respelled = ImportLineAgreement.respelled(previous)
        #expect(respelled.sections[0].title == previous.sections[0].title)
        #expect(respelled.sections[0].items[0].id == previous.sections[0].items[0].id)
        #expect(respelled != previous)
        let parsed = try #require(ImportLineAgreement.parse(line))
        #expect(
            parsed.sections == [
                .init(title: Array("K".utf8), items: [.init(id: [0xC3, 0xA9], summary: Array("Å;".utf8))])
            ])
        for previous in [previous, respelled] {
            #expect(ImportLineAgreement.parse(line, previous: previous) == parsed)
        }
    }

    @Test("the fast path takes the revision lines `replay export` writes, and gives their snapshot and meta")
    func exportedRevisionLines() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            // The second snapshot has strings JSON escapes: the parser may decline its line.
            let snapshots = [
                try snapshot([("A", ["a:1", "b"])]),
                try snapshot([("A", ["b", "a:2", "é:ü"]), ("", ["c:x\"y\\z\n"])]),
                try snapshot([("B\u{212A}", ["e\u{301}:😀", "c:\u{7F}"]), ("A", ["b"])]), LogSnapshot(),
            ]
            for (index, snapshot) in snapshots.enumerated() {
                _ = try await log.append(snapshot, meta: index == 1 ? [:] : ["commit": "c\(index)", "ключ": "é"])
            }
            var tally = ImportLineAgreement.Tally()
            var previous: LogSnapshot?
            for try await record in log.records(from: 1) {
                let line = record.jsonLine()
                let parsed = ImportLineAgreement.parse(Array(line.utf8), previous: previous)
                let written = SpelledSnapshot(AnnotatedSnapshot(meta: record.meta, snapshot: record.snapshot))
                #expect(parsed == written || (record.revision == 2 && parsed == nil), "\(line)")
                previous = ImportLineAgreement.check(Array(line.utf8), previous: previous, tally: &tally)
                #expect(previous.map { SpelledSnapshot(AnnotatedSnapshot(snapshot: $0)).sections } == written.sections)
            }
            #expect(tally.taken >= snapshots.count - 1 && tally.refused == 0, "\(tally)")
        }
    }
}

/// An annotated snapshot as bytes: `String`'s `==` is canonical equivalence, under which "é" and
/// "e" + U+0301 are one string; these compare every title, id, summary, meta key and meta value
/// byte for byte, and the sections and items in order.
struct SpelledSnapshot: Equatable, CustomStringConvertible {
    struct Item: Equatable {
        var id: [UInt8]
        var summary: [UInt8]?
    }

    struct Section: Equatable {
        var title: [UInt8]
        var items: [Item]
    }

    var meta: [[UInt8]: [UInt8]]
    var sections: [Section]

    init(_ annotated: AnnotatedSnapshot<String, String>) {
        meta = Dictionary(uniqueKeysWithValues: annotated.meta.map { (Array($0.key.utf8), Array($0.value.utf8)) })
        sections = annotated.snapshot.sections.map { section in
            Section(
                title: Array(section.title.utf8),
                items: section.items.map { Item(id: Array($0.id.utf8), summary: $0.summary.map { Array($0.utf8) }) })
        }
    }

    /// Every string with its characters past ASCII as `\u{…}`, so that two spellings differ.
    var description: String {
        let shown = ImportLineAgreement.shown
        let meta = self.meta.map { "\(shown($0.key)): \(shown($0.value))" }.sorted()
        let sections = self.sections.map { section in
            let items = section.items.map { item in shown(item.id) + (item.summary.map { " = " + shown($0) } ?? "") }
            return "\(shown(section.title)): [\(items.joined(separator: ", "))]"
        }
        return "meta \(meta), sections \(sections)"
    }
}

/// Holds ``ImportLineParser`` to the checked path (``CheckedJSON``, as ``SnapshotImporter`` calls it).
enum ImportLineAgreement {
    /// How the lines checked went.
    struct Tally: CustomStringConvertible {
        /// Lines the parser took (the checked path decoding the same).
        var taken = 0
        /// Lines the parser declined and the checked path decoded.
        var declined = 0
        /// Lines the checked path refused (and the parser declined).
        var refused = 0

        var description: String {
            "\(taken + declined + refused) lines: taken \(taken), declined \(declined), refused \(refused)"
        }
    }

    /// What the parser gives for `line`, as bytes.
    static func parse(_ line: [UInt8], previous: LogSnapshot? = nil) -> SpelledSnapshot? {
        line.withUnsafeBufferPointer { ImportLineParser.parse($0, previous: previous) }.map(SpelledSnapshot.init)
    }

    /// Expects the parser to give what the checked path decodes from `line`, byte for byte, or
    /// to decline; to decline when the checked path refuses; and to give the same bytes after
    /// `previous`, after the line's own snapshot and after both respelled.
    ///
    /// - Returns: the checked path's snapshot, `nil` when it refuses the line.
    @discardableResult
    static func check(
        _ line: [UInt8], previous: LogSnapshot?, tally: inout Tally, sourceLocation: SourceLocation = #_sourceLocation
    ) -> LogSnapshot? {
        let checked = try? CheckedJSON.decode(ImportLine.self, from: Data(line), reading: .importLine).annotated
        let parsed = parse(line)
        if let parsed {
            tally.taken += 1
            #expect(checked.map(SpelledSnapshot.init) == parsed, "\(shown(line))", sourceLocation: sourceLocation)
        } else if checked != nil {
            tally.declined += 1
        } else {
            tally.refused += 1
        }
        let previousSnapshots = [previous, checked?.snapshot].compactMap { $0 }.flatMap { [$0, respelled($0)] }
        for previous in previousSnapshots {
            #expect(
                parse(line, previous: previous) == parsed,
                "\(shown(line)) after \(shown(Array(previous.formatJSON().utf8)))",
                sourceLocation: sourceLocation)
        }
        return checked?.snapshot
    }

    /// `bytes` as text with every character past ASCII as `\u{…}`, or as bytes when not UTF-8.
    static func shown(_ bytes: [UInt8]) -> String {
        String(validating: bytes, as: UTF8.self).map { $0.unicodeScalars.map { $0.escaped(asASCII: true) }.joined() }
            ?? "bytes \(bytes)"
    }

    /// `snapshot` with its strings respelled: canonically equivalent strings, other code points.
    static func respelled(_ snapshot: LogSnapshot) -> LogSnapshot {
        let sections = snapshot.sections.map { section in
            LogSnapshot.Section(
                title: respelled(section.title),
                items: section.items.map { LogSnapshot.Item(id: respelled($0.id), summary: $0.summary.map(respelled)) })
        }
        // Respelling swaps spellings one for one, so the titles and the ids stay unique.
        return try! LogSnapshot(sections: sections)
    }

    /// Characters and their other spellings, canonically equivalent.
    static let spellings: [Unicode.Scalar: [Unicode.Scalar]] = [
        "\u{E9}": ["e", "\u{301}"], "K": ["\u{212A}"], "\u{212A}": ["K"], "\u{C5}": ["\u{212B}"],
        "\u{212B}": ["\u{C5}"], ";": ["\u{37E}"], "\u{37E}": [";"],
    ]

    /// `string` with "é" and "e" + U+0301 swapped, "K" and the KELVIN SIGN, "Å" and the ANGSTROM
    /// SIGN, ";" and the GREEK QUESTION MARK: `==` to `string`, and other bytes where it has any
    /// of those characters.
    static func respelled(_ string: String) -> String {
        let scalars = Array(string.unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            if scalars[index] == "e", index + 1 < scalars.count, scalars[index + 1] == "\u{301}" {
                result.append("\u{E9}")
                index += 2
            } else {
                result.append(contentsOf: spellings[scalars[index]] ?? [scalars[index]])
                index += 1
            }
        }
        return String(result)
    }
}
