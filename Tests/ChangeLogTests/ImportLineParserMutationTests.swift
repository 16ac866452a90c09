import Foundation
import ListAdapter
import Testing

@testable import ChangeLog

/// The import's fast path against its authority on lines no one picked: good lines broken one
/// byte at a time, every way, and lines of a changing list written by a seeded generator, most
/// of them good and some flawed. ``ImportLineAgreement`` holds the parser to the checked path.
@Suite("Import line parser on mutated and generated lines")
struct ImportLineParserMutationTests {
    /// Good lines the fast path takes: FORMAT.md's snapshot line, a revision line as `replay
    /// export` writes it (no spaces), and one with text beyond ASCII and unknown keys at every level.
    static let seeds = [
        ImportLineParserTests.formatSnapshotLine,
        #"{"revision":3,"time":"2026-11-20T10:00:00.000Z","meta":{"commit":"3f2a9c"},"snapshot":{"sections":[{"title":"A","items":[{"id":"a","summary":"s1"},{"id":"b"}]},{"title":"","items":[]}]},"changes":{"sections":{"deleted":[],"inserted":[],"moved":[]},"items":{"deleted":[[0,2]],"inserted":[],"moved":[{"from":[0,1],"to":[0,0]}],"updated":[{"from":[0,0],"to":[0,1],"summary":"s1"}]}}}"#,
        #"{"v": [1, -0, {"y": "\u00e9\"\\"}, null, true], "sections": [{"title": "Ünï", "n": 12, "items": [{"id": "é", "summary": "😀"}, {"id": "K", "x": {}, "summary": ""}]}], "meta": {"k": "v", "é": ""}}"#,
    ]

    /// The bytes each byte of a seed is replaced with, one at a time.
    static let replacements = Array(#""\,}]{[:0-e.tun "#.utf8) + [0x00, 0x09, 0x0D, 0x0A, 0x1F, 0x80, 0xC3, 0xFF]

    @Test("every truncation, and every one-byte deletion, duplication and replacement, of good lines")
    func mutatedLines() {
        var tally = ImportLineAgreement.Tally()
        for seed in Self.seeds {
            let bytes = Array(seed.utf8)
            #expect(ImportLineAgreement.parse(bytes) != nil, "\(seed)")
            let original = ImportLineAgreement.check(bytes, previous: nil, tally: &tally)
            var mutants = (0..<bytes.count).map { Array(bytes[..<$0]) }
            for index in bytes.indices {
                var deleted = bytes
                deleted.remove(at: index)
                var doubled = bytes
                doubled.insert(bytes[index], at: index)
                mutants += [deleted, doubled]
                for replacement in Self.replacements where replacement != bytes[index] {
                    var replaced = bytes
                    replaced[index] = replacement
                    mutants.append(replaced)
                }
            }
            // After the seed's snapshot, as an import reads a line after a good one.
            for mutant in mutants {
                ImportLineAgreement.check(mutant, previous: original, tally: &tally)
            }
        }
        #expect(tally.taken > 1_000 && tally.declined > 20 && tally.refused > 10_000, "\(tally)")
    }

    @Test("seeded lines of a changing list, good and flawed: the parser agrees with the checked path on each")
    func generatedLines() {
        var generator = LineGenerator(random: SeededGenerator(seed: 20_260_611))
        var tally = ImportLineAgreement.Tally()
        var previous: LogSnapshot?
        for _ in 0..<3_000 {
            generator.evolve()
            let line = generator.line()
            // As an import reads: after the snapshot of the last good line.
            previous = ImportLineAgreement.check(line, previous: previous, tally: &tally) ?? previous
        }
        #expect(tally.taken > 1_000 && tally.declined > 200 && tally.refused > 500, "\(tally)")
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
    /// or a number a fraction or an exponent (forms the parser may decline): none for most lines.
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
                items.append((chance(50) ? twin.id : ImportLineAgreement.respelled(twin.id), nil))
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
        if chance(flawChance) { return pick(ImportLineParserTests.values) }
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
