import Foundation
import Testing

@testable import ChangeLog

/// The text of a value at a coding path, as the input spells it.
@Suite("JSON value text")
struct JSONValueTextTests {
    /// A coding path element: an object's key, or an array's index.
    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int?

        init(stringValue: String) {
            self.stringValue = stringValue
        }

        init(intValue: Int) {
            self.stringValue = "Index \(intValue)"
            self.intValue = intValue
        }
    }

    /// A path element as a literal: a string for a key, an integer for an index.
    enum Element: Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
        case key(String)
        case index(Int)

        init(stringLiteral value: String) { self = .key(value) }
        init(integerLiteral value: Int) { self = .index(value) }
    }

    static func path(_ elements: [Element]) -> [any CodingKey] {
        elements.map { element in
            switch element {
            case .key(let name): Key(stringValue: name)
            case .index(let index): Key(intValue: index)
            }
        }
    }

    static let json = """
        \u{FEFF}{"a": [1, -0, 1E+2, 1e400, "x\\"y", {"b": {"c" : [ true ,null ]}}],
         "k\\u00e9": "escaped key", "z": {"q": 1},
         "5": "numeric key"}
        """

    @Test(
        "values are quoted as typed, wherever they are",
        arguments: [
            ([], nil),
            (["a", 0], "1"), (["a", 1], "-0"), (["a", 2], "1E+2"), (["a", 3], "1e400"), (["a", 4], #""x\"y""#),
            (["a", 5, "b"], #"{"c" : [ true ,null ]}"#), (["a", 5, "b", "c", 1], "null"),
            (["ké"], #""escaped key""#), (["ke\u{301}"], #""escaped key""#), (["z"], #"{"q": 1}"#),
            (["5"], #""numeric key""#),
        ] as [([Element], String?)])
    func found(path: [Element], expected: String?) {
        let text = JSONValueText.text(at: Self.path(path), in: Data(Self.json.utf8))
        if let expected {
            #expect(text == expected)
        } else {
            // The whole text, from its brace (after the byte order mark) to its end.
            #expect(text?.hasPrefix(#"{"a": [1, -0"#) == true && text?.hasSuffix(#""numeric key"}"#) == true)
        }
    }

    @Test(
        "no text where there is no such value, where a key is named twice, or where the text is not JSON",
        arguments: [
            (#"{"a": 1}"#, ["b"]), (#"{"a": [1]}"#, ["a", 1]), (#"{"a": [1]}"#, ["a", -1]), (#"{"a": 1}"#, ["a", "b"]),
            (#"[1]"#, ["a"]), (#"{"a": 1}"#, [0]), (#"{"a": 1, "a": 2}"#, ["a"]), (#"{"a": 1, "\u0061": 2}"#, ["a"]),
            (#"{"a": [1, 2"#, ["a", 1]), (#"{"a": "#, ["a"]), (#"{"a" 1}"#, ["a"]), ("", []),
        ] as [(String, [Element])])
    func notFound(json: String, path: [Element]) {
        #expect(JSONValueText.text(at: Self.path(path), in: Data(json.utf8)) == nil)
    }
}
