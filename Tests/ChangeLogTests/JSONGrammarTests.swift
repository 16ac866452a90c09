import Foundation
import Testing

@testable import ChangeLog

@Suite("JSON grammar")
struct JSONGrammarTests {
    static let valid: [String] =
        JSONDuplicateKeysTests.valid + [
            "0", "-0", "1.5", "-12.25e+3", "1E-2", "0.0e0", #""a\u00e9\/\b\f\n\r\t\\\"""#, "true", "false", "null",
            "[]", "{}", " [ 1 , [ ] , { } , \"x\" , null ] ", "\u{FEFF}{\"a\": [1, 2]}", "[[[[[[]]]]]]",
            // The same key twice is grammar; JSONDuplicateKeys refuses it.
            #"{"a": 1, "a": 2}"#,
        ]

    @Test("JSON is JSON", arguments: valid)
    func validText(json: String) {
        #expect(JSONGrammar.violation(in: Data(json.utf8)) == nil)
    }

    static let invalid: [(json: String, reason: String, offset: Int)] = [
        ("[1,]", "trailing comma", 2), (#"{"a": 1,}"#, "trailing comma", 7), ("[1 , ]", "trailing comma", 3),
        ("01", "invalid number", 0), ("-", "invalid number", 0), ("1.", "invalid number", 0),
        ("1.e3", "invalid number", 0),
        ("1e", "invalid number", 0), ("+1", "invalid value", 0), (".5", "invalid value", 0),
        ("1x", "invalid number", 0),
        ("tru", "invalid value", 0), ("nulls", "invalid value", 0), ("NaN", "invalid value", 0),
        (#""\q""#, "invalid escape", 1), (#""\u12""#, #"invalid \u escape"#, 1),
        ("\"a\u{01}\"", "control character in a string", 2),
        (#""abc"#, "unexpected end of text in a string", 4), ("", "unexpected end of text, expected a value", 0),
        ("[1 2]", "expected ',' or ']'", 3), (#"{"a" 1}"#, "expected ':' after the key", 5),
        (#"{a: 1}"#, "expected a key in double quotes", 1), (#"{"a": 1 "b": 2}"#, "expected ',' or '}'", 8),
        ("[1] [2]", "text after the value", 4),
        ("[1]\r[2]", "text after the value and a carriage return (lines end with \\n, not \\r alone)", 4),
        ("[1", "unexpected end of text", 2), ("[1}", "expected ',' or ']'", 2),
        ("// c\n{}", "invalid value", 0), ("{'a': 1}", "expected a key in double quotes", 1),
        ("{", "unexpected end of text, expected a key", 1), (#"{"a""#, "unexpected end of text, expected ':'", 4),
        (#""\ud800""#, #"unpaired UTF-16 surrogate in a \u escape"#, 1),
        (#""\ud800\u0041""#, #"unpaired UTF-16 surrogate in a \u escape"#, 1),
        (#"["x\udc00"]"#, #"unpaired UTF-16 surrogate in a \u escape"#, 3),
    ]

    @Test("surrogate pairs and UTF-8 beyond ASCII pass")
    func unicodeStrings() {
        for json in [#""\ud83d\ude00""#, #""\uD83D\uDE00 \u00e9""#, "\"é ☃ 😀 \u{10FFFF}\""] {
            #expect(JSONGrammar.violation(in: Data(json.utf8)) == nil, "\(json)")
        }
    }

    @Test(
        "bytes that are not UTF-8 in a string are refused where they start",
        arguments: [
            [0xFF], [0xC0, 0x80], [0xC3], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
            [0xF0, 0x9F, 0x98], [0x80],
        ] as [[UInt8]])
    func invalidUTF8(bytes: [UInt8]) {
        let json = Data(Array(#"["ab"#.utf8) + bytes + Array(#"c"]"#.utf8))
        #expect(JSONGrammar.violation(in: json) == .init(reason: "invalid UTF-8 in a string", offset: 4))
    }

    @Test("text that is not JSON is refused where it stops being JSON, and why", arguments: invalid)
    func invalidText(json: String, reason: String, offset: Int) {
        #expect(JSONGrammar.violation(in: Data(json.utf8)) == .init(reason: reason, offset: offset))
    }

    @Test("whatever JSONSerialization writes is JSON; cut short anywhere, it is not")
    func randomDocuments() throws {
        var random = SeededGenerator(seed: 20_261_122_2)
        for round in 0..<300 {
            let data = try JSONSerialization.data(
                withJSONObject: JSONDuplicateKeysTests.randomObject(depth: 0, using: &random))
            #expect(JSONGrammar.violation(in: data) == nil, "round \(round): \(String(decoding: data, as: UTF8.self))")
            let cut = Int.random(in: 0..<data.count, using: &random)
            let prefix = data.prefix(cut)
            #expect(
                JSONGrammar.violation(in: prefix) != nil,
                "round \(round), cut at \(cut): \(String(decoding: prefix, as: UTF8.self))")
        }
    }

    /// A 100,000-deep nesting: no recursion, so no stack to overflow.
    @Test("deep nesting is checked without recursion")
    func deepNesting() {
        let depth = 100_000
        let deep = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(JSONGrammar.violation(in: Data(deep.utf8)) == nil)
        #expect(JSONGrammar.violation(in: Data((deep.dropLast() + ",]").utf8))?.reason == "trailing comma")
    }
}
