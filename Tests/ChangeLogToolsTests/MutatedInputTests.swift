import ChangeLog
import Foundation
import ListAdapter
import Testing

@testable import ChangeLogTools

/// What a user may feed `replay import` and `replay diff`: good lines broken every way a seeded
/// generator can break them. Each input must decode or be refused with a one-line message;
/// what decodes must be JSON and must write back (`formatJSON()`) as a line that decodes to the
/// same snapshot. A crash, a hang or a message that spans lines fails the suite.
@Suite("Mutated import lines")
struct MutatedInputTests {
    /// Lines that decode: a snapshot line, an export's revision line, and one with escapes,
    /// text beyond ASCII, unknown keys and a summary that is null.
    static let seeds = [
        #"{"meta": {"commit": "3f2a9c"}, "sections": [{"title": "Today", "items": [{"id": "a", "summary": "s1"}, {"id": "b"}]}, {"title": "", "items": []}]}"#,
        #"{"revision": 2, "time": "2026-11-22T10:00:00.000Z", "meta": {}, "snapshot": {"sections": [{"title": "A", "items": [{"id": "x"}]}]}, "changes": {}}"#,
        #"{"sections": [{"title": "\u00e9\n\"q\"", "n": [1, 2.5e-3, true, null], "items": [{"id": "😀", "summary": null, "x": {}}]}]}"#,
    ]

    /// Pieces that break or bend JSON when put in the middle of a line.
    static let insertions = [
        "", ",", ":", "[", "]", "{", "}", "\"", "\\", "\\u", "\\ud800", "\\udc00", "0", "-0", "01", "1e400",
        "18446744073709551616", "null", "true", "nul", "\u{0}", "\u{1B}[2J", "\n", "\r", "\t", " ", "\u{FEFF}", "é",
        "e\u{301}", "\u{2028}", #""id": "a""#, #""sections": []"#, String(repeating: "[", count: 600),
        #"\u001b[2J"#, #"\n"#, #"\u0000"#, #"\u009b"#, #"\u2028"#,
    ]

    /// Keys that decode to text a terminal would act on, as JSON escapes them.
    static let oddKeys = [#"a\nb"#, #"\u001b[2J"#, #"\u0000"#, #"\u009b2J\u007f"#, #"\r"#, #"\t"#]

    /// Values of every JSON type, to mistype a field.
    static let values = ["1", "-0", "1e400", "true", "null", "[]", "{}", #""x""#, #""\u001b[2J""#]

    @Test("seeded mutations of good lines: every one decodes to a snapshot that writes back, or is refused in one line")
    func mutatedLines() throws {
        var random = SeededGenerator(seed: 20_261_122_3)
        var refused = 0
        var decoded = 0
        for seed in Self.seeds {
            let bytes = Array(seed.utf8)
            #expect(throws: Never.self) { try SnapshotImporter.decode(line: bytes, lineNumber: 1) }
            var inputs: [[UInt8]] = (0..<bytes.count).map { Array(bytes[..<$0]) }
            for _ in 0..<1_500 {
                var input = bytes
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    let at = Int.random(in: 0...input.count, using: &random)
                    switch Int.random(in: 0..<6, using: &random) {
                    case 0 where at < input.count:
                        input[at] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &random)
                    case 1 where at < input.count:
                        input.remove(at: at)
                    case 2 where at < input.count:
                        input.insert(input[at], at: at)
                    case 3:
                        // After a colon: a field with an odd key and a value of any type, so
                        // that the decoder reports odd keys in a field's path.
                        guard let colon = input[at...].firstIndex(of: UInt8(ascii: ":")) else { break }
                        let key = Self.oddKeys.randomElement(using: &random)!
                        let value = Self.values.randomElement(using: &random)!
                        let field = #" "v", "\#(key)": \#(value), "\#(key)z":"#
                        input.insert(contentsOf: field.utf8, at: colon + 1)
                    case 4:
                        // Right after a quote: inside a key or a string value.
                        guard let quote = input[at...].firstIndex(of: UInt8(ascii: "\"")) else { break }
                        input.insert(contentsOf: Self.insertions.randomElement(using: &random)!.utf8, at: quote + 1)
                    default:
                        input.insert(contentsOf: Self.insertions.randomElement(using: &random)!.utf8, at: at)
                    }
                }
                inputs.append(input)
            }
            for input in inputs {
                do {
                    let line = try SnapshotImporter.decode(line: input, lineNumber: 7)
                    decoded += 1
                    // What decodes is JSON as JSONSerialization reads it too, unless it holds a
                    // number past Double's range (JSON's grammar allows one; under a key the
                    // decoder does not read, nothing reads it). What it decodes to writes back as
                    // a line that decodes to the same snapshot and metadata.
                    let text = String(decoding: input, as: UTF8.self)
                    #expect(
                        text.contains(/[eE][+-]?[0-9]{3,}/)
                            || (try? JSONSerialization.jsonObject(with: Data(input), options: .fragmentsAllowed))
                                != nil,
                        "\(text.debugDescription)")
                    let again = try SnapshotImporter.decode(line: Array(line.formatJSON().utf8), lineNumber: 1)
                    #expect(again.snapshot == line.snapshot && again.meta == line.meta)
                } catch {
                    refused += 1
                    #expect(error.line == 7)
                    #expect(!error.problem.isEmpty)
                    #expect(
                        !error.problem.unicodeScalars.contains { $0.properties.generalCategory == .control },
                        "\(error.problem.debugDescription) for \(String(decoding: input, as: UTF8.self).debugDescription)"
                    )
                }
            }
        }
        // Both outcomes were exercised.
        #expect(decoded > 100 && refused > 1_000, "decoded \(decoded), refused \(refused)")
    }
}
