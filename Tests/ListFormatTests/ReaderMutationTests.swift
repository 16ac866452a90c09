import ListAdapter
import Testing

@testable import ListFormat

/// The reader on lines no one picked: good lines broken one byte at a time, every way, and lines
/// of a changing list written by a seeded generator, most of them good and some flawed. Each
/// line must be accepted or refused as the reference readers (a fast path held byte for byte to
/// a checked path through `JSONDecoder`) accept or refuse it, with the same snapshot: the
/// digests hold theirs, each over 1,000 lines' verdicts (``ReaderCorpusTests``).
@Suite("Reader: mutated and generated lines")
struct ReaderMutationTests {
    /// Good lines: FORMAT.md's snapshot line, a revision line as `replay export` writes it (no
    /// spaces), and one with text beyond ASCII and unknown keys at every level.
    static let seeds = [
        ReaderCorpusTests.formatSnapshotLine,
        #"{"revision":3,"time":"2026-11-20T10:00:00.000Z","meta":{"commit":"3f2a9c"},"snapshot":{"sections":[{"title":"A","items":[{"id":"a","summary":"s1"},{"id":"b"}]},{"title":"","items":[]}]},"changes":{"sections":{"deleted":[],"inserted":[],"moved":[]},"items":{"deleted":[[0,2]],"inserted":[],"moved":[{"from":[0,1],"to":[0,0]}],"updated":[{"from":[0,0],"to":[0,1],"summary":"s1"}]}}}"#,
        #"{"v": [1, -0, {"y": "\u00e9\"\\"}, null, true], "sections": [{"title": "Ünï", "n": 12, "items": [{"id": "é", "summary": "😀"}, {"id": "K", "x": {}, "summary": ""}]}], "meta": {"k": "v", "é": ""}}"#,
    ]

    /// The bytes each byte of a seed is replaced with, one at a time.
    static let replacements = Array(#""\,}]{[:0-e.tun "#.utf8) + [0x00, 0x09, 0x0D, 0x0A, 0x1F, 0x80, 0xC3, 0xFF]

    /// Every truncation, and every one-byte deletion, duplication and replacement, of the seeds.
    static func mutants() -> [[UInt8]] {
        var all: [[UInt8]] = []
        for seed in seeds {
            let bytes = Array(seed.utf8)
            var mutants = (0..<bytes.count).map { Array(bytes[..<$0]) }
            for index in bytes.indices {
                var deleted = bytes
                deleted.remove(at: index)
                var doubled = bytes
                doubled.insert(bytes[index], at: index)
                mutants += [deleted, doubled]
                for replacement in replacements where replacement != bytes[index] {
                    var replaced = bytes
                    replaced[index] = replacement
                    mutants.append(replaced)
                }
            }
            all += mutants
        }
        return all
    }

    /// 3,000 lines of a changing list, good and flawed.
    static func generated() -> [[UInt8]] {
        var generator = LineGenerator(random: SeededGenerator(seed: 20_260_611))
        return (0..<3_000).map { _ in
            generator.evolve()
            return generator.line()
        }
    }

    /// How many of ``mutants()`` the reference readers accept, and the digest of each 1,000.
    static let mutantVerdicts: (count: Int, accepted: Int, digests: [String]) = (
        count: 21_663, accepted: 4_861,
        digests: [
            "2a4061d8526169cc",
            "d75d04c982ae4f4b",
            "7df353989b58c15c",
            "a15b685ab9139599",
            "c41daf6ffb31dd53",
            "34ba621cac579223",
            "a6557ed7cd88b769",
            "73e4c705f6dc7447",
            "6cc3e4c0d42db4a",
            "6103bb01d74411e8",
            "5527ab19a0aed77d",
            "7414dd03b7dd30c3",
            "3183976da1bef42f",
            "a805ea6034296215",
            "4a8169094fb53ab9",
            "85bdfe5c75b1cb67",
            "4bacdc471e7e4b8b",
            "74dfcfd8c6870f55",
            "8a1c94a600551903",
            "c003af25a5c6622a",
            "5a7e8f652e888b1",
            "76951eef0bc227e0",
        ]
    )

    /// How many of ``generated()`` the reference readers accept, and the digest of each 1,000.
    static let generatedVerdicts: (count: Int, accepted: Int, digests: [String]) = (
        count: 3_000, accepted: 1_871,
        digests: [
            "5545e42cc8d5371c",
            "ba28683473c7fda9",
            "3693734e93fc72d",
        ]
    )

    /// Expects `lines` to be read as `verdicts` say, each after the snapshot of the last good
    /// line before it (as an import reads), which lends strings and never changes a byte.
    static func expect(
        _ lines: [[UInt8]], _ verdicts: (count: Int, accepted: Int, digests: [String]),
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(lines.count == verdicts.count, sourceLocation: sourceLocation)
        var chunk = ""
        var accepted = 0
        var previous: ListSnapshot<String, String, String>?
        for (index, line) in lines.enumerated() {
            let read = try? InterchangeFormat.readImportLine(line)
            if let read {
                accepted += 1
                let shared = line.withUnsafeBufferPointer {
                    try? InterchangeFormat.readImportLine($0, previous: previous)
                }
                #expect(shared.map(SpelledSnapshot.init) == SpelledSnapshot(read), sourceLocation: sourceLocation)
                previous = read.snapshot
            }
            chunk += (read.map { FNV1a.hex(SpelledSnapshot($0).description) } ?? "-") + "\n"
            if index % 1000 == 999 || index == lines.count - 1 {
                #expect(
                    FNV1a.hex(chunk) == verdicts.digests[index / 1000], "lines \(index / 1000 * 1000) to \(index)",
                    sourceLocation: sourceLocation)
                chunk = ""
            }
        }
        #expect(accepted == verdicts.accepted, sourceLocation: sourceLocation)
    }

    @Test("every truncation, and every one-byte deletion, duplication and replacement, of good lines")
    func mutatedLines() {
        Self.expect(Self.mutants(), Self.mutantVerdicts)
    }

    @Test("seeded lines of a changing list, good and flawed")
    func generatedLines() {
        Self.expect(Self.generated(), Self.generatedVerdicts)
    }
}

/// Writes lines of a list that changes a little from one line to the next, the many ways JSON
/// allows: keys in any order, unknown keys, whitespace, escapes, snapshot or revision lines.
/// Now and then a line is flawed: a key missing or named twice, a trailing comma, a duplicate
/// id, a bad value where the schema does not look, a byte changed.
struct LineGenerator {
    var random: SeededGenerator
    var sections: [(title: String, items: [(id: String, summary: String?)])] = []
    var counter = 0
    /// The chance, in percent, that a container of the line being written (or its bytes) is
    /// flawed: none for most lines.
    var flawChance = 0
    /// The chance, in percent, that a string of the line being written has characters escaped,
    /// or a number a fraction or an exponent (rare forms): none for most lines.
    var rareChance = 0

    /// Pieces of text: ASCII, and characters with canonically equivalent spellings.
    static let alphabet = ["a", "b", "K", "\u{212A}", "é", "e\u{301}", "😀", "日", " ", "/", "\u{7F}", ";"]
    /// Characters JSON escapes, put in text now and then.
    static let escaped = ["\"", "\\", "\n", "\u{1}"]
    /// Values for unknown keys that are JSON.
    static let goodValues = [
        "0", "-0", "42", "-7", "123456789012345", "true", "false", "null", #""""#, #""\u00e9\n""#,
    ]
    /// Numbers that are JSON but rare in a line.
    static let rareNumbers = ["1.5", "-0.0", "2e10", "1E-3", "12345678901234567890"]
    /// Bytes that break a line where they land.
    static let badBytes: [[UInt8]] = [
        [0x22], [0x5C], [0x2C], [0x7D], [0x5D], [0x00], [0xFF], [0xC3], [0xED, 0xA0, 0x80],
    ]

    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
    mutating func number(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
    mutating func pick<T>(_ choices: [T]) -> T { choices.randomElement(using: &random)! }
    mutating func text() -> String {
        (0..<number(0...3)).map { _ in pick(Self.alphabet) }.joined() + (chance(rareChance) ? pick(Self.escaped) : "")
    }

    mutating func fresh(_ prefix: String) -> String {
        counter += 1
        return "\(prefix)\(counter)\(text())"
    }

    /// A few changes to the list: sections and items inserted, deleted, moved, updated.
    mutating func evolve() {
        let itemCount = sections.reduce(0) { $0 + $1.items.count }
        for _ in 0..<number(1...4) {
            let section = sections.isEmpty ? nil : number(0...sections.count - 1)
            let item = section.flatMap { sections[$0].items.isEmpty ? nil : number(0...sections[$0].items.count - 1) }
            switch (number(0...6), section, item) {
            case (0, _, _) where sections.count < 5:
                sections.insert((fresh("S"), []), at: number(0...sections.count))
            case (1, let section?, _) where chance(30):
                sections.remove(at: section)
            case (2, let section?, _) where itemCount < 30:
                let summary = chance(70) ? text() : nil
                sections[section].items.insert((fresh("i"), summary), at: number(0...sections[section].items.count))
            case (3, let section?, let item?):
                sections[section].items.remove(at: item)
            case (4, let section?, let item?):
                let moved = sections[section].items.remove(at: item)
                let target = number(0...sections.count - 1)
                sections[target].items.insert(moved, at: number(0...sections[target].items.count))
            case (5, let section?, let item?):
                sections[section].items[item].summary = chance(80) ? text() : nil
            case (6, let section?, _):
                sections.swapAt(section, number(0...sections.count - 1))
            default:
                break
            }
        }
    }

    /// The list as a line.
    mutating func line() -> [UInt8] {
        flawChance = chance(40) ? 8 : 0
        rareChance = chance(15) ? 10 : 0
        var sectionValues: [String] = []
        for section in sections {
            var items = section.items
            if chance(flawChance), let twin = items.randomElement(using: &random) {
                items.append((chance(50) ? twin.id : Respelling.respelled(twin.id), nil))
            }
            var itemValues: [String] = []
            for item in items {
                var members = [("id", string(item.id))]
                if let summary = item.summary { members.append(("summary", string(summary))) }
                if item.summary == nil, chance(flawChance) { members.append(("summary", "null")) }
                itemValues.append(object(members))
            }
            sectionValues.append(object([("title", string(section.title)), ("items", array(itemValues))]))
        }
        var members: [(String, String)] = []
        if chance(40) {
            let keys = (0..<number(0...3)).map { _ in chance(flawChance) ? text() : fresh("m") }
            members.append(("meta", object(keys.map { ($0, string(text())) })))
        }
        if chance(30) {
            counter += 1
            members = [("revision", "\(counter)"), ("time", #""2026-11-20T10:00:00.000Z""#)] + members
            members += [("snapshot", object([("sections", array(sectionValues))])), ("changes", "{}")]
        } else {
            members.append(("sections", array(sectionValues)))
        }
        var bytes = Array((space() + object(members) + space()).utf8)
        if chance(flawChance) {
            let at = number(0...bytes.count - 1)
            bytes.replaceSubrange(at..<(at + number(0...1)), with: pick(Self.badBytes))
        }
        return bytes
    }

    /// JSON's whitespace, or none.
    mutating func space() -> String { pick(["", "", "", " ", " ", "\t", "\r\n", "  "]) }

    /// A JSON string of `text`, now and then with every character escaped.
    mutating func string(_ text: String) -> String {
        guard chance(rareChance) else {
            var writer = JSONWriter()
            writer.string(text)
            return writer.string
        }
        return "\"" + text.utf16.map { "\\u" + ("000" + String($0, radix: 16)).suffix(4) }.joined() + "\""
    }

    /// A value for a key the schema does not read: now and then one that is not JSON.
    mutating func value(depth: Int) -> String {
        if chance(flawChance) { return pick(ReaderCorpusTests.values) }
        switch number(0...4) {
        case 0 where depth < 3: return array((0..<number(0...3)).map { _ in value(depth: depth + 1) })
        case 1 where depth < 3: return object((0..<number(0...3)).map { _ in (text(), value(depth: depth + 1)) })
        case 2: return string(text())
        case 3 where chance(rareChance): return pick(Self.rareNumbers)
        default: return pick(Self.goodValues)
        }
    }

    /// An object of `members` (keys unquoted), with an unknown member now and then, its members
    /// in another order now and then; flawed: a member left out or repeated, a trailing comma.
    mutating func object(_ members: [(String, String)]) -> String {
        var members = members.map { (string($0.0), $0.1) }
        if chance(20) { members.shuffle(using: &random) }
        if chance(20) { members.insert((string(fresh("x")), value(depth: 0)), at: number(0...members.count)) }
        var trailer = ""
        if chance(flawChance) {
            switch (number(0...2), members.randomElement(using: &random)) {
            case (0, let member?): members.removeAll { $0.0 == member.0 }
            case (1, let member?):
                members.insert(chance(50) ? member : (member.0, value(depth: 1)), at: number(0...members.count))
            default: trailer = ","
            }
        }
        let (colon, comma) = (space() + ":" + space(), space() + "," + space())
        return "{" + space() + members.map { $0.0 + colon + $0.1 }.joined(separator: comma) + trailer + space() + "}"
    }

    /// An array of `elements`; flawed: a trailing comma.
    mutating func array(_ elements: [String]) -> String {
        let trailer = chance(flawChance) ? "," : ""
        return "[" + space() + elements.joined(separator: space() + "," + space()) + trailer + space() + "]"
    }
}
