import Testing

@testable import ListFormat

/// The format's JSON is UTF-8. Foundation's `JSONDecoder` detects and decodes UTF-16 and UTF-32
/// by itself; the reader names them instead, told by their byte order marks or, without one, by
/// where the NUL bytes of the first character fall (JSON text starts with an ASCII character).
@Suite("Reader: text that is not UTF-8")
struct EncodingTests {
    static let json = #"{"sections":[{"title":"a","title":"b","items":[]}]}"#

    enum Encoding: String, CaseIterable, CustomTestStringConvertible {
        case utf16LE, utf16BE, utf16WithBOM, utf32LE, utf32BE, utf32WithBOM

        var family: String { rawValue.hasPrefix("utf16") ? "UTF-16" : "UTF-32" }

        var testDescription: String { rawValue }

        func encode(_ text: String) -> [UInt8] {
            switch self {
            case .utf16LE: text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
            case .utf16BE: text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
            case .utf16WithBOM: Encoding.utf16LE.encode("\u{FEFF}" + text)
            case .utf32LE:
                text.unicodeScalars.flatMap { scalar in (0..<4).map { UInt8(scalar.value >> ($0 * 8) & 0xFF) } }
            case .utf32BE:
                text.unicodeScalars.flatMap { scalar in
                    (0..<4).reversed().map { UInt8(scalar.value >> ($0 * 8) & 0xFF) }
                }
            case .utf32WithBOM: Encoding.utf32LE.encode("\u{FEFF}" + text)
            }
        }
    }

    @Test("UTF-16 and UTF-32, with or without a byte order mark, are named", arguments: Encoding.allCases)
    func foreign(encoding: Encoding) throws {
        let error = try #require(Reading.error(encoding.encode(Self.json)))
        #expect(error.problem == "the text is \(encoding.family), not UTF-8: the interchange format is UTF-8")
        #expect(error.column == 1 && error.path.isEmpty)
    }

    @Test("a later line of a UTF-16 or UTF-32 import file is named too", arguments: Encoding.allCases)
    func laterLine(encoding: Encoding) throws {
        let bytes = encoding.encode(Self.json + "\n" + Self.json + "\n")
        let second = Array(bytes.split(separator: 0x0A, omittingEmptySubsequences: false)[1])
        #expect(Reading.error(second)?.problem.hasPrefix("the text is \(encoding.family)") == true)
    }

    @Test(
        "UTF-8 passes, with or without a byte order mark and with text beyond ASCII",
        arguments: [
            #"{"sections":[{"title":"a","items":[]}]}"#, "\u{FEFF}" + #"{"sections":[]}"#,
            #"{"sections":[{"title":"Ünïcödé ☃ 😀","items":[]}]}"#,
        ])
    func utf8(text: String) {
        #expect(Reading.error(text) == nil)
    }

    @Test("a NUL byte is refused where it is: in a string, or between tokens")
    func nulByte() {
        let inString = Array(#"{"sections":[{"title":"a"#.utf8) + [0x00] + Array(#"","items":[]}]}"#.utf8)
        let error = Reading.error(inString)
        #expect(error?.offset == 24 && error?.path == "sections[0].title")
        #expect(error?.problem.hasPrefix("not valid JSON: control character in a string") == true)
        #expect(Reading.error([0x00])?.problem.hasPrefix("not valid JSON: invalid value") == true)
        #expect(Reading.error(Array(#"{"sections": []}"#.utf8) + [0x00])?.offset == 16)
        // However the bytes are held: a slice that starts further on, a collection without
        // contiguous storage.
        let padded = [0x20, 0x20, 0x20] + inString
        #expect((try? InterchangeFormat.readImportLine(padded[3...])) == nil)
        do {
            _ = try InterchangeFormat.readImportLine(inString.lazy.map { $0 })
            Issue.record("a NUL byte read")
        } catch {
            #expect(error.offset == 24)
        }
    }
}
