/// Finds, among a list of stored chunks, the ones with a given fingerprint, for the writer's
/// lookups of content it may already have stored.
///
/// An ordinary append looks up a few new chunks per changed section: scanning the section's
/// chunks costs less than building anything. A section that changed throughout looks up one
/// chunk per chunk, and scanning would cost O(*n*²): after ``scansBeforeIndexing`` scans of a
/// list longer than ``shortList``, the list is indexed once (a dictionary and one array), and
/// the lookups after that cost O(1).
struct FingerprintIndex {
    /// A list this long or shorter is always scanned.
    static let shortList = 16
    /// How many lookups scan a longer list before it is indexed.
    static let scansBeforeIndexing = 16

    private var scans = 0
    /// The last offset holding each fingerprint, once indexed.
    private var lastOffset: [Fingerprint: Int]?
    /// For each offset, the offset before it holding the same fingerprint, or -1.
    private var earlierOffset: [Int] = []

    init() {}

    /// Whether the list was indexed (for tests).
    var isIndexed: Bool { lastOffset != nil }

    /// The first non-`nil` result of `body` for the offsets of `chunks` holding `fingerprint`,
    /// taken from the last one back. `chunks` must be the same list at every call.
    mutating func lastMatch<R>(of fingerprint: Fingerprint, in chunks: [StoredChunk], _ body: (Int) -> R?) -> R? {
        if lastOffset == nil {
            if chunks.count <= Self.shortList || scans < Self.scansBeforeIndexing {
                scans += 1
                for offset in chunks.indices.reversed() where chunks[offset].fingerprint == fingerprint {
                    if let result = body(offset) { return result }
                }
                return nil
            }
            index(chunks)
        }
        var offset = lastOffset?[fingerprint] ?? -1
        while offset >= 0 {
            if let result = body(offset) { return result }
            offset = earlierOffset[offset]
        }
        return nil
    }

    /// Indexes `chunks` by fingerprint.
    private mutating func index(_ chunks: [StoredChunk]) {
        var last: [Fingerprint: Int] = [:]
        last.reserveCapacity(chunks.count)
        earlierOffset = [Int](repeating: -1, count: chunks.count)
        for (offset, chunk) in chunks.enumerated() {
            if let earlier = last.updateValue(offset, forKey: chunk.fingerprint) {
                earlierOffset[offset] = earlier
            }
        }
        lastOffset = last
    }
}
