import Foundation
import ListAdapter
import Testing

@testable import ChangeLog

@Suite("JSON duplicate keys")
struct JSONDuplicateKeysTests {
    static let valid: [String] = [
        #"{}"#, #"[]"#, #"{"a": {}, "b": []}"#, "  {\n\t\"a\" :\r\n 1 }  ",
        // The same key in sibling objects, and in an object and the one inside it.
        #"{"sections": [{"title": "A", "items": [{"id": "a"}, {"id": "b", "summary": "s"}]}, {"title": "B", "items": []}]}"#,
        #"{"a": {"a": {"a": 1}}, "b": [{"a": 1}, {"a": 2}]}"#,
        // Strings holding quotes, backslashes, brackets and colons, as values and as keys.
        #"{"a\"": "}", "a\\": "\\", "a": "\"{[:,", "{": [], "\u0041": 1}"#,
        // Numbers and literals, and keys that differ only by an escape's meaning.
        #"{"n": -1.5e+10, "t": true, "f": false, "z": null, "x\u0041": 1, "xA0": 2, "\ud83d\ude00": 1, "\ud83d\ude01": 2}"#,
        // Different characters that look alike, and an escape's text against the escape's meaning.
        #"{"K": 1, "k": 2, "\u212a\u212a": 3, "Å": 4, "A": 5, "e\\u0301": 6, "é": 7}"#,
    ]

    @Test("valid JSON without a key twice in one object passes", arguments: valid)
    func noDuplicate(json: String) throws {
        #expect(throws: Never.self) { try JSONSerialization.jsonObject(with: Data(json.utf8)) }
        #expect(JSONDuplicateKeys.first(in: Data(json.utf8)) == nil)
    }

    static let duplicates: [(json: String, key: String, path: String)] = [
        (#"{"a": 1, "a": 2}"#, "a", "(top level)"),
        (#"{"sections": [], "sections": []}"#, "sections", "(top level)"),
        (
            #"{"sections": [{"title": "A", "items": [{"id": "a"}, {"id": "b", "id": "c"}]}]}"#, "id",
            "sections[0].items[1]"
        ),
        (#"{"meta": {"k": "1", "\u006b": "2"}}"#, "k", "meta"),
        (#"{"x": [[1], {"b": 1, "c": {"d": 1}, "b": 2}]}"#, "b", "x[1]"),
        (#"{"\ud83d\ude00": 1, "😀": 2}"#, "😀", "(top level)"),
        (#"{"a\"b": 1, "a\u0022b": 2}"#, "a\"b", "(top level)"),
        ("\u{FEFF}" + #"{"a": 1, "a": 2}"#, "a", "(top level)"),
        // Canonically equivalent spellings: one key to the decoder's Swift dictionaries, which
        // keep one of the two values.
        (#"{"é": 1, "e\u0301": 2}"#, "é", "(top level)"),
        (#"{"meta": {"e\u0301": "1", "é": "2"}}"#, "é", "meta"),
        (#"{"K": 1, "\u212a": 2}"#, "K", "(top level)"),
        (#"{"Å": 1, "\u212b": 2}"#, "Å", "(top level)"),
        // The first one in reading order.
        (#"{"p": {"q": 1, "q": 2}, "p": 3}"#, "q", "p"),
    ]

    @Test("a key twice in one object is found, with the object's path", arguments: duplicates)
    func duplicate(json: String, key: String, path: String) throws {
        #expect(throws: Never.self) { try JSONSerialization.jsonObject(with: Data(json.utf8)) }
        #expect(JSONDuplicateKeys.first(in: Data(json.utf8)) == .init(key: key, path: path))
    }

    /// Unknown keys are ignored on input, and so is whatever they hold: a key repeated there
    /// says nothing twice about what is read.
    static let schemaCases: [(json: String, keys: JSONKeys, found: JSONDuplicateKeys.Duplicate?)] = [
        (#"{"sections": [], "x": {"a": 1, "a": 2}}"#, .importLine, nil),
        (#"{"sections": [], "x": 1, "x": 2}"#, .importLine, nil),
        (
            #"{"sections": [{"title": "A", "n": [{"b": 1, "b": 2}], "items": [{"id": "a", "q": 1, "q": 2}]}]}"#,
            .snapshot, nil
        ),
        (
            #"{"sections": [{"title": "A", "items": [{"id": "a", "id": "b"}]}], "x": {"a": 1, "a": 2}}"#, .snapshot,
            .init(key: "id", path: "sections[0].items[0]")
        ),
        (#"{"sections": [], "sections": []}"#, .snapshot, .init(key: "sections", path: "(top level)")),
        // meta is read as a map by an import (every key counts) and not at all by a snapshot file.
        (#"{"meta": {"k": "1", "k": "2"}, "sections": []}"#, .importLine, .init(key: "k", path: "meta")),
        (#"{"meta": {"k": "1", "k": "2"}, "sections": []}"#, .snapshot, nil),
        // A revision line: its snapshot is read, its changes are not.
        (#"{"revision": 1, "changes": {"items": {}, "items": {}}, "snapshot": {"sections": []}}"#, .importLine, nil),
        (
            #"{"revision": 1, "snapshot": {"sections": [{"title": "A", "title": "B", "items": []}]}}"#, .importLine,
            .init(key: "title", path: "snapshot.sections[0]")
        ),
    ]

    @Test("only keys the decoder reads count: repeated unknown keys, and keys inside them, are ignored")
    func schemas() {
        for (json, keys, found) in Self.schemaCases {
            #expect(JSONDuplicateKeys.first(in: Data(json.utf8), reading: keys) == found, "\(json)")
            // Read whole, every one of them holds a repeated key.
            #expect(JSONDuplicateKeys.first(in: Data(json.utf8)) != nil, "\(json)")
        }
    }

    /// An object of `count` distinct keys `k0`, `k1`, …, each holding 0, with `extra` appended
    /// after them (`, "k3": 1` repeats a key).
    static func manyKeys(_ count: Int, then extra: String = "") -> String {
        "{" + (0..<count).map { #""k\#($0)": 0"# }.joined(separator: ", ") + extra + "}"
    }

    @Test("in an object of many keys, past the first ones that are compared one by one, a repeated key is found")
    func manyKeysRepeated() {
        for count in [15, 16, 17, 40] {
            for repeatedKey in ["k0", "k14", "k\(count - 1)"] {
                let json = Self.manyKeys(count, then: #", "\#(repeatedKey)": 1"#)
                #expect(JSONDuplicateKeys.first(in: Data(json.utf8)) == .init(key: repeatedKey, path: "(top level)"))
            }
            #expect(JSONDuplicateKeys.first(in: Data(Self.manyKeys(count).utf8)) == nil)
            // Canonically equivalent spellings, and a repeated key the decoder ignores.
            let meta = #"{"meta": "# + Self.manyKeys(count, then: #", "é": "1", "e\u0301": "2""#) + "}"
            #expect(JSONDuplicateKeys.first(in: Data(meta.utf8), reading: .importLine) == .init(key: "é", path: "meta"))
            let ignored = #"{"sections": [], "x": "# + Self.manyKeys(count, then: #", "k0": 1"#) + "}"
            #expect(JSONDuplicateKeys.first(in: Data(ignored.utf8), reading: .importLine) == nil)
            // The keys of a closed object do not count in the next one, nor in the one around it.
            let siblings = "[" + Self.manyKeys(count) + ", " + Self.manyKeys(count) + "]"
            #expect(JSONDuplicateKeys.first(in: Data(siblings.utf8)) == nil)
            let nested = #"{"k0": "# + Self.manyKeys(count) + #", "k1": "# + Self.manyKeys(count) + "}"
            #expect(JSONDuplicateKeys.first(in: Data(nested.utf8)) == nil)
        }
    }

    /// Comparing every key with every other one took minutes for an object of a few hundred
    /// thousand keys (a line of a few megabytes); the keys of a large object are hashed. Its
    /// speed is not timed here (no wall-clock limits in tests): this holds what the hashed path
    /// finds in an object of thousands of keys.
    @Test("an object of thousands of keys: a repeated key is found wherever it is, none where there is none")
    func thousandsOfKeys() {
        #expect(JSONDuplicateKeys.first(in: Data(Self.manyKeys(5_000).utf8)) == nil)
        for repeatedKey in ["k0", "k16", "k2500", "k4999"] {
            let json = Self.manyKeys(5_000, then: #", "\#(repeatedKey)": 1"#)
            #expect(JSONDuplicateKeys.first(in: Data(json.utf8)) == .init(key: repeatedKey, path: "(top level)"))
        }
    }

    @Test("random documents: none in what JSONSerialization writes from dictionaries, and a repeated key is found")
    func randomDocuments() throws {
        var random = SeededGenerator(seed: 20_261_122)
        for round in 0..<300 {
            let document = Self.randomObject(depth: 0, using: &random)
            let data = try JSONSerialization.data(withJSONObject: document)
            #expect(
                JSONDuplicateKeys.first(in: data) == nil, "round \(round): \(String(decoding: data, as: UTF8.self))")
            // Repeat the first key of the text's top-level object at its end.
            guard let key = document.keys.sorted().first else { continue }
            let text = String(decoding: data, as: UTF8.self)
            let keyJSON = String(
                decoding: try JSONSerialization.data(withJSONObject: [key], options: []), as: UTF8.self)
            let repeated = String(text.dropLast()) + "," + keyJSON.dropFirst().dropLast() + ":0}"
            #expect(try JSONSerialization.jsonObject(with: Data(repeated.utf8)) is [String: Any])
            #expect(
                JSONDuplicateKeys.first(in: Data(repeated.utf8)) == .init(key: key, path: "(top level)"),
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
    private static func randomString(using random: inout SeededGenerator) -> String {
        let alphabet: [Character] = [
            "a", "b", "\"", "\\", "/", "\n", "\t", "\u{01}", "é", "e\u{301}", "😀", "{", ":", ",", " ",
        ]
        return String((0..<Int.random(in: 0...4, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
    }
}
