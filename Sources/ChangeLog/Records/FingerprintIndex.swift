/// Finds, among a list of stored chunks, the ones with a given fingerprint, for the writer's
/// lookups of content it may already have stored: a scan while the list is short, a dictionary
/// built on the first lookup once it is long, so that cutting a large section that changed
/// throughout costs O(*n*), not O(*n*²).
struct FingerprintIndex {
    /// A list longer than this is indexed in a dictionary.
    static let scanLimit = 16

    private var offsetsByFingerprint: [Fingerprint: [Int]]?

    init() {}

    /// Whether a lookup built the dictionary (for tests).
    var isIndexed: Bool { offsetsByFingerprint != nil }

    /// The first non-`nil` result of `body` for the offsets of `chunks` holding `fingerprint`,
    /// taken from the last one back. `chunks` must be the same list at every call.
    mutating func lastMatch<R>(of fingerprint: Fingerprint, in chunks: [StoredChunk], _ body: (Int) -> R?) -> R? {
        guard chunks.count > Self.scanLimit else {
            for offset in chunks.indices.reversed() where chunks[offset].fingerprint == fingerprint {
                if let result = body(offset) { return result }
            }
            return nil
        }
        if offsetsByFingerprint == nil {
            var built: [Fingerprint: [Int]] = [:]
            built.reserveCapacity(chunks.count)
            for (offset, chunk) in chunks.enumerated() {
                built[chunk.fingerprint, default: []].append(offset)
            }
            offsetsByFingerprint = built
        }
        for offset in (offsetsByFingerprint?[fingerprint] ?? []).reversed() {
            if let result = body(offset) { return result }
        }
        return nil
    }
}
