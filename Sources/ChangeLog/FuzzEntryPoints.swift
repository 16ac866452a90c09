/// Entry points for the libFuzzer targets in `Tests/Fuzz` (`scripts/fuzz.sh`): each decodes
/// arbitrary bytes the way the package decodes untrusted input.
///
/// A thrown error is the expected outcome for most inputs and is reported as `false`; only a
/// trap, a sanitizer report or a hang is a finding.
///
/// The import line's entry point extends this type in ChangeLogTools, beside the importer.
package enum FuzzEntryPoints {
    /// Decodes `bytes` as stored record data. The first byte chooses what the rest is:
    /// - `0`: a revision record without its checksum, sealed here with the checksum of
    ///   revision 1 so that decoding reaches the fields (`RevisionRecordBody(decoding:revision:)`);
    /// - `1`: a chunk's content (`Chunk(content:)`), whose checksum its reader checks
    ///   before decoding;
    /// - `2`: a revision record as stored under revision 1, checksum included, so that the
    ///   checksum check is fuzzed too;
    /// - `3`: a compressed chunk's content (kind `5`), decompressed without a dictionary, then
    ///   decoded as a chunk, as a reader does once the checksum passes.
    ///
    /// Other values of the first byte select by their remainder modulo 4; an empty input does
    /// nothing.
    ///
    /// - Returns: Whether the rest decoded.
    @discardableResult
    package static func decodeRecord(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let selector = bytes.first else { return false }
        let rest = UnsafeRawBufferPointer(rebasing: bytes.dropFirst())
        switch selector % 4 {
        case 0:
            let sealed = Chunk.sealed(Array(rest), id: 1)
            return sealed.withUnsafeBytes { (try? RevisionRecordBody(decoding: $0, revision: 1)) != nil }
        case 1:
            return (try? Chunk(content: rest)) != nil
        case 2:
            return (try? RevisionRecordBody(decoding: rest, revision: 1)) != nil
        default:
            return decodeCompressedChunk(rest)
        }
    }

    /// Decompresses `bytes` as a compressed chunk without a dictionary and decodes the content.
    private static func decodeCompressedChunk(_ bytes: UnsafeRawBufferPointer) -> Bool {
        do throws(RecordDecodingError) {
            let header = try ChunkCompression.header(of: bytes)
            let content = try ChunkCompression.decompress(
                UnsafeRawBufferPointer(rebasing: bytes[header.frameStart...]), length: header.length, dictionary: nil)
            return content.withUnsafeBytes { (try? Chunk(content: $0)) != nil }
        } catch {
            return false
        }
    }
}
