import Foundation
import ListAdapter
import Testing

@testable import ListFormat

/// JSON's grammar (RFC 8259) holds everywhere in a line, inside values the schema ignores too
/// (Foundation's `JSONDecoder` accepts trailing commas and does not look at what it does not
/// read); a problem is named where the text stops being JSON, and why.
@Suite("Reader: JSON's grammar")
struct GrammarTests {
    /// JSON values of every kind, read under a key the schema ignores.
    static let valid: [String] =
        DuplicateKeyTests.distinctKeys + [
            "0", "-0", "1.5", "-12.25e+3", "1E-2", "0.0e0", #""a\u00e9\/\b\f\n\r\t\\\"""#, "true", "false", "null",
            "[]", "{}", " [ 1 , [ ] , { } , \"x\" , null ] ", "[[[[[[]]]]]]",
            // The same key twice inside a value the schema ignores.
            #"{"a": 1, "a": 2}"#,
        ]

    @Test("JSON is JSON, under a key the schema ignores", arguments: valid)
    func validText(json: String) {
        #expect(Reading.error(Reading.underUnknownKey(json)) == nil)
    }

    @Test("a byte order mark may start a line, and the columns count from after it")
    func byteOrderMark() {
        #expect(Reading.error("\u{FEFF}" + Reading.underUnknownKey(#"{"a": [1, 2]}"#)) == nil)
        let error = Reading.error("\u{FEFF}" + Reading.underUnknownKey("[x]"))
        #expect(error?.column == 8)
        // A second one is not whitespace.
        #expect(Reading.error("\u{FEFF}\u{FEFF}" + #"{"sections": []}"#)?.column == 1)
    }

    /// Values that are not JSON, why, and the 0-based offset in the value where they stop
    /// being JSON; `atEnd` for a value that runs to the line's end.
    static let invalid: [(json: String, reason: String, offset: Int, atEnd: Bool)] = [
        ("[1,]", "trailing comma", 2, false), (#"{"a": 1,}"#, "trailing comma", 7, false),
        ("[1 , ]", "trailing comma", 3, false), ("01", "invalid number", 0, false), ("-", "invalid number", 0, false),
        ("1.", "invalid number", 0, false), ("1.e3", "invalid number", 0, false), ("1e", "invalid number", 0, false),
        ("+1", "invalid value", 0, false), (".5", "invalid value", 0, false), ("1x", "invalid number", 0, false),
        ("tru", "invalid value", 0, false), ("nulls", "invalid value", 0, false), ("NaN", "invalid value", 0, false),
        (#""\q""#, "invalid escape", 1, false), (#""\u12""#, #"invalid \u escape"#, 1, false),
        ("\"a\u{01}\"", "control character in a string", 2, false),
        (#""abc"#, "unexpected end of text in a string", 4, true),
        ("", "unexpected end of text, expected a value", 0, true),
        ("[1 2]", "expected ',' or ']'", 3, false), (#"{"a" 1}"#, "expected ':' after the key", 5, false),
        (#"{a: 1}"#, "expected a key in double quotes", 1, false),
        (#"{"a": 1 "b": 2}"#, "expected ',' or '}'", 8, false),
        ("[1", "unexpected end of text", 2, true), ("[1}", "expected ',' or ']'", 2, false),
        ("// c\n{}", "invalid value", 0, false), ("{'a': 1}", "expected a key in double quotes", 1, false),
        ("{", "unexpected end of text, expected a key", 1, true),
        (#"{"a""#, "unexpected end of text, expected ':'", 4, true),
        (#""\ud800""#, #"unpaired UTF-16 surrogate in a \u escape"#, 1, false),
        (#""\ud800\u0041""#, #"unpaired UTF-16 surrogate in a \u escape"#, 1, false),
        (#"["x\udc00"]"#, #"unpaired UTF-16 surrogate in a \u escape"#, 3, false),
    ]

    @Test("text that is not JSON is refused where it stops being JSON, and why", arguments: invalid)
    func invalidText(json: String, reason: String, offset: Int, atEnd: Bool) throws {
        let error = try #require(Reading.error(Reading.underUnknownKey(json, atEnd: atEnd)))
        #expect(error.problem.hasPrefix("not valid JSON: \(reason)"), "\(error)")
        #expect(error.column == 7 + offset, "\(error)")
        #expect(error.path.hasPrefix("x"), "\(error)")
    }

    @Test("text after the line's object is refused, a lone carriage return named as such")
    func textAfterTheValue() {
        #expect(
            Reading.error(#"{"sections": []} [2]"#)?.description
                == #"column 18: not valid JSON: text after the value ("[2]")"#)
        #expect(
            Reading.error("{\"sections\": []}\r[2]")?.description
                == #"column 18: not valid JSON: text after the value and a carriage return (lines end with \n, "#
                + #"not \r alone) ("[2]")"#)
        #expect(Reading.error(#"{"sections": []}  "# + "\r\n\t ") == nil)
    }

    @Test("surrogate pairs and UTF-8 beyond ASCII pass")
    func unicodeStrings() {
        for json in [#""\ud83d\ude00""#, #""\uD83D\uDE00 \u00e9""#, "\"é ☃ 😀 \u{10FFFF}\""] {
            #expect(Reading.error(Reading.underUnknownKey(json)) == nil, "\(json)")
        }
    }

    @Test(
        "bytes that are not UTF-8 in a string are refused where they start",
        arguments: [
            [0xFF], [0xC0, 0x80], [0xC3], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
            [0xF0, 0x9F, 0x98], [0x80],
        ] as [[UInt8]])
    func invalidUTF8(bytes: [UInt8]) throws {
        let line = Array(#"{"x": ["ab"#.utf8) + bytes + Array(#"c"], "sections": []}"#.utf8)
        let error = try #require(Reading.error(line))
        #expect(error.problem.hasPrefix("not valid JSON: invalid UTF-8 in a string"), "\(error)")
        #expect(error.offset == 10 && error.column == 11 && error.path == "x[0]", "\(error)")
    }

    @Test("whatever JSONSerialization writes is JSON; cut short anywhere, it is not")
    func randomDocuments() throws {
        var random = SeededGenerator(seed: 20_261_122_2)
        for round in 0..<300 {
            let data = try JSONSerialization.data(
                withJSONObject: DuplicateKeyTests.randomObject(depth: 0, using: &random))
            let text = String(decoding: data, as: UTF8.self)
            #expect(Reading.error(Reading.underUnknownKey(text)) == nil, "round \(round): \(text)")
            let cut = Int.random(in: 0..<data.count, using: &random)
            let prefix = Array(#"{"sections": [], "x": "#.utf8) + Array(data.prefix(cut))
            #expect(
                Reading.error(prefix) != nil,
                "round \(round), cut at \(cut): \(String(decoding: prefix, as: UTF8.self))")
        }
    }

    /// The reader recurses once per level: past its limit it stops, whatever the depth.
    @Test("nesting is read to 512 levels, the line's object counting as one; deeper is refused where it passes")
    func depthLimit() throws {
        func nested(_ depth: Int) -> String {
            Reading.underUnknownKey(String(repeating: "[", count: depth) + String(repeating: "]", count: depth))
        }
        #expect(Reading.error(nested(511)) == nil)
        for depth in [512, 600, 100_000] {
            let error = try #require(Reading.error(nested(depth)))
            #expect(error.problem == "nested deeper than 512 arrays and objects", "\(depth)")
            // At the 512th bracket: the 513th level.
            #expect(error.column == 7 + 511, "\(depth)")
            #expect(error.path == "x[0][0][0][0][0][0][0]...(500 steps)...[0][0][0][0]", "\(depth)")
        }
        let objects = String(repeating: #"{"a":"#, count: 600) + "0" + String(repeating: "}", count: 600)
        #expect(Reading.error(Reading.underUnknownKey(objects))?.problem == "nested deeper than 512 arrays and objects")
    }
}
