/// Tells JSON text that is not UTF-8 from UTF-8 text, before it is decoded.
///
/// The interchange format's JSON is UTF-8, but Foundation's `JSONDecoder` also detects and decodes
/// UTF-16 and UTF-32 by itself, while ``JSONDuplicateKeys`` reads UTF-8 only: a UTF-16 object that
/// names a key twice would decode with one of the two values and pass the duplicate check. Text
/// that is not UTF-8 is therefore refused before it is decoded.
///
/// UTF-16 and UTF-32 are told by their byte order marks, or without one by where the NUL bytes
/// of the first characters fall (JSON text starts with an ASCII character; RFC 4627, section 3).
/// Any other NUL byte is refused too: UTF-8 JSON text never holds one, inside strings or out.
/// A UTF-8 byte order mark is accepted, as `JSONDecoder` and ``JSONDuplicateKeys`` accept it.
package enum JSONTextEncoding {
    /// Why a JSON text is not UTF-8, and where that shows.
    package struct NotUTF8: Equatable, Sendable, CustomStringConvertible {
        /// `"UTF-16"` or `"UTF-32"` when the text is recognisably one of them; `nil` when only a
        /// NUL byte shows that it is not UTF-8 JSON text.
        package var encoding: String?
        /// The 0-based offset of the first NUL byte, or 0 for a byte order mark.
        package var offset: Int

        /// `the text is UTF-16, not UTF-8: …`, or `the text holds a NUL byte at offset 12: …`.
        package var description: String {
            let found =
                encoding.map { "the text is \($0), not UTF-8" }
                ?? "the text holds a NUL byte at offset \(offset), which UTF-8 JSON text never does"
            return found + ": the interchange format is UTF-8"
        }
    }

    /// Why `json` is not UTF-8 JSON text, or `nil` when it may be (whether it is valid UTF-8 and
    /// valid JSON is left to the decoder).
    ///
    /// - Complexity: O(*n*) for *n* bytes.
    package static func notUTF8(_ json: some Collection<UInt8>) -> NotUTF8? {
        let start = Array(json.prefix(4))
        if start.starts(with: [0x00, 0x00, 0xFE, 0xFF]) || start.starts(with: [0xFF, 0xFE, 0x00, 0x00]) {
            return NotUTF8(encoding: "UTF-32", offset: 0)
        }
        if start.starts(with: [0xFE, 0xFF]) || start.starts(with: [0xFF, 0xFE]) {
            return NotUTF8(encoding: "UTF-16", offset: 0)
        }
        guard let offset = firstNUL(in: json) else { return nil }
        let isNUL = start.map { $0 == 0x00 }
        switch isNUL {
        // 00 00 00 xx (big-endian) and xx 00 00 00 (little-endian).
        case [true, true, true, false], [false, true, true, true]:
            return NotUTF8(encoding: "UTF-32", offset: offset)
        // 00 xx 00 xx and xx 00 xx 00.
        case [true, false, true, false], [false, true, false, true]:
            return NotUTF8(encoding: "UTF-16", offset: offset)
        default:
            return NotUTF8(encoding: nil, offset: offset)
        }
    }

    /// The 0-based offset of the first NUL byte of `bytes`, or `nil` when there is none. Reads
    /// contiguous storage (`Data`, arrays) through a buffer pointer: element by element,
    /// `Data` pays for an exclusivity check per byte, which made this scan a sixth of an
    /// import's time.
    private static func firstNUL(in bytes: some Collection<UInt8>) -> Int? {
        if let found = bytes.withContiguousStorageIfAvailable({ $0.firstIndex(of: 0x00) }) {
            return found
        }
        return bytes.firstIndex(of: 0x00).map { bytes.distance(from: bytes.startIndex, to: $0) }
    }
}
