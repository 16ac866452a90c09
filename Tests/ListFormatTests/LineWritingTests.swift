import ListAdapter
import Testing

@testable import ListFormat

/// The byte-level writers behind revision lines: strings escaped as RFC 8259 requires, integers
/// in decimal, lines written straight into bytes, lines without their snapshots, and the encoder
/// that copies the sections a snapshot shares with the one before.
@Suite("Writer: revision lines into bytes")
struct LineWritingTests {
    typealias Snapshot = ListSnapshot<String, String, String>

    /// A JSON string as RFC 8259 writes it with only the escapes it requires, scalar by scalar:
    /// the reference the writer's byte-level escaping must match.
    static func referenceJSON(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += #"\""#
            case "\\": out += #"\\"#
            case "\n": out += #"\n"#
            case "\r": out += #"\r"#
            case "\t": out += #"\t"#
            case "\u{08}": out += #"\b"#
            case "\u{0C}": out += #"\f"#
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += #"\u00"# + (hex.count == 1 ? "0" : "") + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Every ASCII character, then characters whose UTF-8 takes two, three and four bytes, and
    /// a decomposed accent.
    static let everyKindOfCharacter =
        String((0..<0x80).map { Character(Unicode.Scalar(UInt8($0))) }) + "é\u{2028}€😀e\u{301}/"

    @Test("strings escape exactly what RFC 8259 requires, alone, at either end and in runs")
    func stringEscaping() {
        let cases = [
            "", "plain", Self.everyKindOfCharacter, "\"", "\\", "\n", "a\"", "\"a", "a\u{0}b", "\u{1F}\u{1F}",
            "tail\\", String(repeating: "x\n", count: 50),
        ]
        for value in cases {
            var writer = JSONWriter()
            writer.string(value)
            #expect(writer.string == Self.referenceJSON(value), "\(value.debugDescription)")
            var contents = JSONWriter()
            contents.stringContents(value)
            #expect("\"" + contents.string + "\"" == Self.referenceJSON(value), "\(value.debugDescription)")
        }
    }

    @Test("integers are written in decimal, whatever their type and sign")
    func integers() {
        var writer = JSONWriter()
        for value: UInt64 in [0, 9, 10, 99, 100, 1_234_567_890, .max] {
            writer.integer(value)
            writer.raw(",")
        }
        for value: Int in [0, -1, 42, .min, .max] {
            writer.integer(value)
            writer.raw(",")
        }
        writer.integer(Int64.min)
        #expect(
            writer.string
                == "0,9,10,99,100,1234567890,18446744073709551615,0,-1,42,\(Int.min),\(Int.max),-9223372036854775808")
    }

    @Test("appending writes to the end of bytes already there")
    func appendingKeepsWhatIsThere() {
        var bytes = Array("prefix|".utf8)
        JSONWriter.appending(to: &bytes) { writer in writer.string("a\"b") }
        #expect(String(decoding: bytes, as: UTF8.self) == #"prefix|"a\"b""#)
    }

    /// A revision line of strings that need every kind of escape, in each place a string goes.
    static func escapingLine() throws -> RevisionLine {
        let odd = Self.everyKindOfCharacter
        let old = try Snapshot(sections: [.init(title: "gone", items: [.init(id: "g")])])
        let new = try Snapshot(sections: [
            .init(title: odd, summary: odd, items: [.init(id: odd, summary: odd), .init(id: "plain")]),
            .init(title: "", items: []),
        ])
        return RevisionLine(
            revision: 12, millisecondsSince1970: 1_795_168_800_123, meta: [odd: odd, "k": "v"], snapshot: new,
            changes: old.changes(to: new))
    }

    @Test("a line appended as bytes is jsonLine()'s bytes, after whatever the buffer held")
    func appendLineMatchesJSONLine() throws {
        let line = try Self.escapingLine()
        var bytes = Array("x\n".utf8)
        RevisionLine.appendLine(
            revision: line.revision, millisecondsSince1970: line.millisecondsSince1970, meta: line.meta,
            snapshot: line.snapshot, changes: line.changes, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "x\n" + line.jsonLine())
        #expect(try InterchangeFormat.readRevisionLine(bytes.dropFirst(2)) == line)
    }

    @Test("a line without its snapshot: the format's keys but the snapshot, meta sorted code point by code point")
    func changesOnlyLine() throws {
        let line = try Self.escapingLine()
        // A decomposed "é" (e, U+0301) comes before the precomposed one code point by code point,
        // after it in Swift's `<` (which compares canonical equivalents); "B" before "a".
        let meta = ["\u{E9}": "1", "e\u{301}x": "2", "a": "3", "B": "4", "a10": "5", "a2": "6", "q": "\"\n"]
        var bytes: [UInt8] = []
        RevisionLine.appendChangesOnlyLine(
            revision: line.revision, millisecondsSince1970: line.millisecondsSince1970, meta: meta,
            changes: line.changes, to: &bytes)
        let expected =
            #"{"revision":12,"time":"2026-11-20T10:00:00.123Z","meta":{"B":"4","a":"3","a10":"5","a2":"6","#
            + "\"e\u{301}x\":\"2\",\"q\":\"\\\"\\n\",\"\u{E9}\":\"1\"},\"changes\":"
            + line.changes.formatJSON() + "}"
        #expect(Array(expected.utf8) == bytes)
    }

    /// Snapshots from `seed`, each sharing the sections it does not change with the one before
    /// (as a log's consecutive snapshots do): items updated, moved across sections, sections
    /// inserted, deleted, moved, re-titled, emptied, and some rebuilt equal but apart.
    static func sharingHistory(seed: UInt64, count: Int) throws -> [Snapshot] {
        var generator = SeededGenerator(seed: seed)
        var sections: [Snapshot.Section] = (0..<4).map { section in
            .init(title: "S\(section)", items: (0..<5).map { .init(id: "i\(section)-\($0)", summary: "v0") })
        }
        var nextID = 0
        var snapshots = [try Snapshot(sections: sections)]
        for step in 1..<count {
            switch Int.random(in: 0..<8, using: &generator) {
            case 0 where !sections.isEmpty:
                let section = Int.random(in: sections.indices, using: &generator)
                if !sections[section].items.isEmpty {
                    let item = Int.random(in: sections[section].items.indices, using: &generator)
                    sections[section].items[item].summary = "v\(step)\u{0}\"\\"
                }
            case 1 where sections.count > 1:
                let from = Int.random(in: sections.indices, using: &generator)
                let to = Int.random(in: sections.indices, using: &generator)
                if !sections[from].items.isEmpty {
                    let moved = sections[from].items.removeLast()
                    sections[to].items.insert(moved, at: 0)
                }
            case 2:
                nextID += 1
                sections.insert(
                    .init(title: "new \(nextID)", summary: step % 2 == 0 ? "s" : nil, items: []),
                    at: Int.random(in: 0...sections.count, using: &generator))
            case 3 where !sections.isEmpty:
                sections.remove(at: Int.random(in: sections.indices, using: &generator))
            case 4 where sections.count > 1:
                sections.swapAt(0, sections.count - 1)
            case 5 where !sections.isEmpty:
                sections[0].title = "retitled \(step)"
            case 6 where !sections.isEmpty:
                // Equal content, new storage: written again, to the same bytes.
                let index = Int.random(in: sections.indices, using: &generator)
                sections[index] = .init(
                    title: sections[index].title, summary: sections[index].summary,
                    items: sections[index].items.map { .init(id: $0.id, summary: $0.summary) })
            default:
                nextID += 1
                if !sections.isEmpty { sections[sections.count - 1].items.append(.init(id: "n\(nextID)")) }
            }
            snapshots.append(try Snapshot(sections: sections))
        }
        return snapshots
    }

    @Test("the encoder writes each line of a history exactly as jsonLine() does", arguments: [1, 2, 3] as [UInt64])
    func encoderMatchesJSONLine(seed: UInt64) throws {
        let snapshots = try Self.sharingHistory(seed: seed, count: 200)
        var encoder = RevisionLineEncoder()
        var previous = Snapshot()
        var bytes: [UInt8] = []
        var expected = ""
        for (offset, snapshot) in snapshots.enumerated() {
            let line = RevisionLine(
                revision: UInt64(offset + 1), millisecondsSince1970: Int64(offset), meta: ["n": "\(offset)"],
                snapshot: snapshot, changes: previous.changes(to: snapshot))
            encoder.appendLine(
                revision: line.revision, millisecondsSince1970: line.millisecondsSince1970, meta: line.meta,
                snapshot: line.snapshot, changes: line.changes, to: &bytes)
            bytes.append(UInt8(ascii: "\n"))
            expected += line.jsonLine() + "\n"
            previous = snapshot
        }
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
        // Most lines share most of their sections with the line before.
        #expect(encoder.copiedSections > snapshots.count)
    }

    @Test("empty sections share one storage; each is still written with its own title and summary")
    func emptySectionsAreNotConfused() throws {
        let first = try Snapshot(sections: [.init(title: "A", items: []), .init(title: "B", summary: "b", items: [])])
        let second = try Snapshot(sections: [
            .init(title: "B", summary: "b", items: []), .init(title: "C", items: []), first.sections[0],
        ])
        var encoder = RevisionLineEncoder()
        for (offset, snapshot) in [first, second, first].enumerated() {
            var bytes: [UInt8] = []
            let line = RevisionLine(
                revision: UInt64(offset + 1), millisecondsSince1970: 0, meta: [:], snapshot: snapshot,
                changes: ListChanges())
            encoder.appendLine(
                revision: line.revision, millisecondsSince1970: 0, meta: [:], snapshot: snapshot,
                changes: ListChanges(), to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == line.jsonLine())
        }
        // "B" in the second line, "A" in the third.
        #expect(encoder.copiedSections == 2)
    }
}
