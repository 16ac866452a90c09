/// XXH3 hashes (``XXH3``, the values of libxxhash 0.8.1): the 64-bit checksums stored in records and chunks, and the
/// 128-bit fingerprints the writer uses in memory to recognize chunks it already stored.
enum ContentHash {
    /// XXH3-64 of `bytes`, seeded with `seed` (a revision number or a chunk identifier, so that
    /// a record moved to another key no longer checks).
    static func checksum(_ bytes: UnsafeRawBufferPointer, seed: UInt64) -> UInt64 {
        XXH3.hash64(bytes, seed: seed)
    }

    /// XXH3-64 of `bytes`, seeded with `seed`.
    static func checksum(_ bytes: [UInt8], seed: UInt64) -> UInt64 {
        bytes.withUnsafeBytes { checksum($0, seed: seed) }
    }

    /// XXH3-64 of a string's UTF-8 bytes: decides where the writer cuts chunks.
    static func boundaryHash(_ string: String) -> UInt64 {
        if let hash = string.utf8.withContiguousStorageIfAvailable({
            XXH3.hash64(UnsafeRawBufferPointer($0), seed: 0)
        }) {
            return hash
        }
        var string = string
        return string.withUTF8 { XXH3.hash64(UnsafeRawBufferPointer($0), seed: 0) }
    }

    /// XXH3-128 of `bytes`.
    static func fingerprint(_ bytes: UnsafeRawBufferPointer) -> Fingerprint {
        let hash = XXH3.hash128(bytes)
        return Fingerprint(high: hash.high, low: hash.low)
    }

    /// XXH3-128 of `bytes`.
    static func fingerprint(_ bytes: [UInt8]) -> Fingerprint {
        bytes.withUnsafeBytes { fingerprint($0) }
    }
}

/// A 128-bit content fingerprint (XXH3-128): equal fingerprints are taken as equal content.
struct Fingerprint: Hashable, Sendable {
    /// The high 64 bits.
    var high: UInt64
    /// The low 64 bits.
    var low: UInt64
}
