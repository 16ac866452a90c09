import Foundation
import Testing

@testable import ChangeLog

@Suite("JSON text encoding")
struct JSONTextEncodingTests {
    /// An object that names `title` twice: what UTF-16 or UTF-32 text would slip past the
    /// duplicate-key check with.
    static let json = #"{"sections":[{"title":"a","title":"b","items":[]}]}"#

    /// The encodings other than UTF-8 that `JSONDecoder` detects by itself: little- and
    /// big-endian without a byte order mark, and little-endian with one.
    enum Encoding: String, CaseIterable, CustomTestStringConvertible {
        case utf16LE, utf16BE, utf16WithBOM, utf32LE, utf32BE, utf32WithBOM

        /// `"UTF-16"` or `"UTF-32"`.
        var family: String { rawValue.hasPrefix("utf16") ? "UTF-16" : "UTF-32" }

        /// The case's name, in test reports.
        var testDescription: String { rawValue }

        /// `text` in this encoding; the byte order mark versions are little-endian.
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
        let bytes = encoding.encode(Self.json)
        // JSONDecoder reads the text, and the duplicate-key check, which reads UTF-8, misses the key.
        #expect(throws: Never.self) { try JSONSerialization.jsonObject(with: Data(bytes)) }
        #expect(JSONDuplicateKeys.first(in: Data(bytes)) == nil)

        let notUTF8 = try #require(JSONTextEncoding.notUTF8(bytes))
        #expect(notUTF8.encoding == encoding.family)
        #expect(notUTF8.description == "the text is \(encoding.family), not UTF-8: the interchange format is UTF-8")
    }

    /// A line of an import file after the first one starts where the previous one's `\n` ended:
    /// UTF-16LE's `\n` is 0A 00, so the next line starts with 00 and reads as big-endian. It is
    /// still UTF-16.
    @Test("a later line of a UTF-16 or UTF-32 import file is named too", arguments: Encoding.allCases)
    func laterLine(encoding: Encoding) throws {
        let bytes = encoding.encode(Self.json + "\n" + Self.json + "\n")
        let second = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)[1]
        #expect(JSONTextEncoding.notUTF8(second)?.encoding == encoding.family)
    }

    @Test(
        "UTF-8 passes, with or without a byte order mark and with text beyond ASCII",
        arguments: [json, "\u{FEFF}" + json, #"{"sections":[{"title":"Ünïcödé ☃ 😀","items":[]}]}"#, "", " "])
    func utf8(text: String) {
        #expect(JSONTextEncoding.notUTF8(Array(text.utf8)) == nil)
    }

    @Test("a NUL byte elsewhere is refused with its offset")
    func nulByte() {
        let bytes = Array(#"{"sections":[{"title":"a"#.utf8) + [0x00] + Array(#"","items":[]}]}"#.utf8)
        let notUTF8 = JSONTextEncoding.notUTF8(bytes)
        #expect(notUTF8 == .init(encoding: nil, offset: 24))
        #expect(
            notUTF8?.description
                == "the text holds a NUL byte at offset 24, which UTF-8 JSON text never does: the interchange format is UTF-8"
        )
        #expect(JSONTextEncoding.notUTF8([0x00]) == .init(encoding: nil, offset: 0))
        // The offset counts from the text's start however it is stored: in `Data`, in a slice
        // of it that starts further on, and in a collection without contiguous storage.
        let padded = Data([0x20, 0x20, 0x20] + bytes)
        for text in [Data(bytes), padded[3...]] {
            #expect(JSONTextEncoding.notUTF8(text) == .init(encoding: nil, offset: 24))
        }
        #expect(JSONTextEncoding.notUTF8(bytes.lazy.map { $0 }) == .init(encoding: nil, offset: 24))
    }

    @Test("SnapshotImporter.decode refuses a UTF-16 line before decoding it, naming the line")
    func importerDecode() {
        let line = Encoding.utf16LE.encode(Self.json)
        #expect(
            throws: SnapshotImportError(
                line: 3, problem: "the text is UTF-16, not UTF-8: the interchange format is UTF-8")
        ) {
            try SnapshotImporter.decode(line: line, lineNumber: 3)
        }
        // The same object in UTF-8 is refused for its repeated key.
        #expect(throws: SnapshotImportError.self) {
            try SnapshotImporter.decode(line: Array(Self.json.utf8), lineNumber: 3)
        }
    }
}
