import Foundation
import ListAdapter
import Testing

@testable import ListFormat

/// A key of the schema named twice in one object says two things about one field: it is refused
/// (RFC 8259 leaves such objects to each parser, I-JSON forbids them). Keys compare once their
/// escapes are decoded; `meta`'s keys compare as Swift strings (up to canonical equivalence),
/// as the dictionary that holds them does. Unknown keys are ignored, repeated or not.
@Suite("Reader: keys named twice")
struct DuplicateKeyTests {
    /// Objects whose keys all differ, some only by an escape's meaning or by characters that
    /// look alike.
    static let distinctKeys: [String] = [
        #"{}"#, #"[]"#, #"{"a": {}, "b": []}"#, "  {\n\t\"a\" :\r\n 1 }  ",
        // The same key in sibling objects, and in an object and the one inside it.
        #"{"sections": [{"title": "A", "items": [{"id": "a"}, {"id": "b", "summary": "s"}]}, {"title": "B", "items": []}]}"#,
        #"{"a": {"a": {"a": 1}}, "b": [{"a": 1}, {"a": 2}]}"#,
        // Strings holding quotes, backslashes, brackets and colons, as values and as keys.
        #"{"a\"": "}", "a\\": "\\", "a": "\"{[:,", "{": [], "\u0041": 1}"#,
        #"{"n": -1.5e+10, "t": true, "f": false, "z": null, "x\u0041": 1, "xA0": 2, "\ud83d\ude00": 1, "\ud83d\ude01": 2}"#,
    ]

    @Test("meta keys that differ, some only by an escape's meaning or by look-alike characters, all read")
    func distinctMetaKeys() throws {
        let line =
            #"{"meta": {"K": "1", "k": "2", "\u212a\u212a": "3", "Å": "4", "A": "5", "e\\u0301": "6", "é": "7", "#
            + #""x\u0041": "8", "xA0": "9", "\ud83d\ude00": "10", "\ud83d\ude01": "11", "a\"": "12", "a\\": "13"}, "#
            + #""sections": []}"#
        let read = try InterchangeFormat.readImportLine(Array(line.utf8))
        #expect(read.meta.count == 13)
        #expect(read.meta["e\\u0301"] == "6" && read.meta["é"] == "7" && read.meta["xA"] == "8")
    }

    /// Lines with a key of the schema twice in one object: the key, the object's path, and the
    /// column of the second key.
    static let duplicates: [(line: String, key: String, path: String, column: Int)] = [
        (#"{"sections": [], "sections": []}"#, "sections", "", 18),
        (
            #"{"sections": [{"title": "A", "items": [{"id": "a"}, {"id": "b", "id": "c"}]}]}"#, "id",
            "sections[0].items[1]", 65
        ),
        (#"{"sections": [{"title": "A", "items": [{"id": "b", "\u0069d": "c"}]}]}"#, "id", "sections[0].items[0]", 52),
        (#"{"sections": [{"title": "A", "title": "B", "items": []}]}"#, "title", "sections[0]", 30),
        (#"{"sections": [{"title": "A", "items": [], "items": []}]}"#, "items", "sections[0]", 43),
        (
            #"{"sections": [{"title": "A", "items": [{"id": "a", "summary": null, "summary": "s"}]}]}"#, "summary",
            "sections[0].items[0]", 69
        ),
        (#"{"meta": {}, "sections": [], "meta": {}}"#, "meta", "", 30),
        (#"{"snapshot": {"sections": []}, "snapshot": {"sections": []}}"#, "snapshot", "", 32),
        (#"{"snapshot": {"sections": [], "sections": []}}"#, "sections", "snapshot", 31),
        (
            #"{"snapshot": {"sections": [{"title": "A", "title": "B", "items": []}]}}"#, "title",
            "snapshot.sections[0]", 43
        ),
        (#"{"meta": {"k": "1", "\u006b": "2"}, "sections": []}"#, "k", "meta", 21),
        (#"{"meta": {"\ud83d\ude00": "1", "😀": "2"}, "sections": []}"#, "😀", "meta", 32),
        (#"{"meta": {"a\"b": "1", "a\u0022b": "2"}, "sections": []}"#, "a\"b", "meta", 24),
        ("\u{FEFF}" + #"{"meta": {"a": "1", "a": "2"}, "sections": []}"#, "a", "meta", 21),
        // Canonically equivalent spellings: one key of the dictionary `meta` is read into.
        (#"{"meta": {"é": "1", "e\u0301": "2"}, "sections": []}"#, "é", "meta", 21),
        (#"{"meta": {"e\u0301": "1", "é": "2"}, "sections": []}"#, "é", "meta", 27),
        (#"{"meta": {"K": "1", "\u212a": "2"}, "sections": []}"#, "K", "meta", 21),
        (#"{"meta": {"Å": "1", "\u212b": "2"}, "sections": []}"#, "Å", "meta", 21),
        // The first one in reading order.
        (#"{"meta": {"q": "1", "q": "2"}, "meta": {}, "sections": []}"#, "q", "meta", 21),
    ]

    @Test("a key of the schema twice in one object is refused, with the object's path", arguments: duplicates)
    func duplicate(line: String, key: String, path: String, column: Int) throws {
        let error = try #require(Reading.error(line))
        #expect(error.problem == "duplicate key \(quotedExcerpt(key)); a key may appear once in an object", "\(error)")
        #expect(error.path == path && error.column == column, "\(error)")
    }

    /// Unknown keys are ignored on input, and so is whatever they hold.
    static let ignored = [
        #"{"sections": [], "x": {"a": 1, "a": 2}}"#, #"{"sections": [], "x": 1, "x": 2}"#,
        #"{"sections": [{"title": "A", "n": [{"b": 1, "b": 2}], "items": [{"id": "a", "q": 1, "q": 2}]}]}"#,
        // A revision line: its snapshot is read, its changes and its snapshot's other keys are not.
        #"{"revision": 1, "changes": {"items": {}, "items": {}}, "snapshot": {"sections": [], "meta": 1, "meta": 2}}"#,
    ]

    @Test("unknown keys, and the keys inside them, may repeat", arguments: ignored)
    func ignoredKeys(line: String) {
        #expect(Reading.error(line) == nil)
    }

    /// An object of `count` distinct keys `k0`, `k1`, …, each holding `"0"`, with `extra` after
    /// them (`, "k3": "1"` repeats a key).
    static func manyKeys(_ count: Int, then extra: String = "") -> String {
        "{" + (0..<count).map { #""k\#($0)": "0""# }.joined(separator: ", ") + extra + "}"
    }

    @Test("a repeated key of a meta of many keys is found wherever it is, and none where there is none")
    func manyKeysRepeated() {
        for count in [15, 16, 17, 40, 5_000] {
            for repeatedKey in ["k0", "k14", "k\(count - 1)"] {
                let line =
                    #"{"meta": "# + Self.manyKeys(count, then: #", "\#(repeatedKey)": "1""#) + #", "sections": []}"#
                #expect(Reading.error(line)?.problem.hasPrefix("duplicate key \"\(repeatedKey)\"") == true)
            }
            #expect(Reading.error(#"{"meta": "# + Self.manyKeys(count) + #", "sections": []}"#) == nil)
            let equivalent =
                #"{"meta": "# + Self.manyKeys(count, then: #", "é": "1", "e\u0301": "2""#) + #", "sections": []}"#
            #expect(Reading.error(equivalent)?.problem.hasPrefix("duplicate key \"é\"") == true)
            let unknown = #"{"sections": [], "x": "# + Self.manyKeys(count, then: #", "k0": "1""#) + "}"
            #expect(Reading.error(unknown) == nil)
        }
    }

    @Test("random metas: none repeated in what JSONSerialization writes from dictionaries, a repeated key found")
    func randomMetas() throws {
        var random = SeededGenerator(seed: 20_261_122)
        for round in 0..<300 {
            var meta: [String: String] = [:]
            for _ in 0..<Int.random(in: 0...5, using: &random) {
                meta[Self.randomString(using: &random)] = Self.randomString(using: &random)
            }
            let text = String(decoding: try JSONSerialization.data(withJSONObject: meta), as: UTF8.self)
            let read = try? InterchangeFormat.readImportLine(Array((#"{"meta": "# + text + #", "sections": []}"#).utf8))
            #expect(read?.meta == meta, "round \(round): \(text)")
            guard let key = meta.keys.sorted().first else { continue }
            let keyJSON = String(decoding: try JSONSerialization.data(withJSONObject: [key]), as: UTF8.self)
            let repeated = String(text.dropLast()) + "," + keyJSON.dropFirst().dropLast() + #":"0"}"#
            #expect(
                Reading.error(#"{"meta": "# + repeated + #", "sections": []}"#)?.problem
                    == "duplicate key \(quotedExcerpt(key)); a key may appear once in an object",
                "round \(round): \(repeated)")
        }
    }

    static func randomObject(depth: Int, using random: inout SeededGenerator) -> [String: Any] {
        var object: [String: Any] = [:]
        for _ in 0..<Int.random(in: 0...5, using: &random) {
            object[randomString(using: &random)] = randomValue(depth: depth + 1, using: &random)
        }
        return object
    }

    private static func randomValue(depth: Int, using random: inout SeededGenerator) -> Any {
        switch Int.random(in: 0..<(depth > 3 ? 4 : 6), using: &random) {
        case 0: return randomString(using: &random)
        case 1: return Int.random(in: -1_000...1_000, using: &random)
        case 2: return Bool.random(using: &random)
        case 3: return NSNull()
        case 4:
            return (0..<Int.random(in: 0...4, using: &random)).map { _ in randomValue(depth: depth + 1, using: &random)
            }
        default: return randomObject(depth: depth, using: &random)
        }
    }

    /// Short strings from an alphabet that JSON must escape or that is not ASCII.
    static func randomString(using random: inout SeededGenerator) -> String {
        let alphabet: [Character] = [
            "a", "b", "\"", "\\", "/", "\n", "\t", "\u{01}", "é", "e\u{301}", "😀", "{", ":", ",", " ",
        ]
        return String((0..<Int.random(in: 0...4, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
    }
}
