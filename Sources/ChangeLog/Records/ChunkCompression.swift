import CZstd
import Synchronization

/// zstd compression of chunk content (RecordFormat.md, "Compressed chunks"): a compressed chunk
/// (kind `5`) names the dictionary it was compressed with, a chunk of kind `6` of its own, and
/// holds its content's length and a zstd frame without its 4-byte magic number.
enum ChunkCompression {
    /// The level chunks are compressed at: higher levels gained under 2% on a real history.
    static let level: Int32 = 3
    /// The most content bytes a compressed chunk may claim: more is damage, refused before
    /// anything is allocated.
    static let largestContent = 1 << 28
    /// The magic number every zstd frame starts with, little-endian; stored chunks leave it out.
    static let frameMagic: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD]

    /// The stored content for `content`: a compressed chunk when that is smaller, else `content`.
    static func encode(_ content: [UInt8], with compressor: ChunkCompressor) -> [UInt8] {
        guard content.count >= 16, let frame = compressor.compress(content) else { return content }
        var writer = RecordWriter(capacity: frame.count + 12)
        writer.writeByte(Chunk.Kind.compressed.rawValue)
        writer.writeVarint(compressor.dictionary?.id ?? 0)
        writer.writeCount(content.count)
        guard writer.bytes.count + frame.count - frameMagic.count < content.count else { return content }
        var bytes = writer.takeBytes()
        bytes.append(contentsOf: frame[frameMagic.count...])
        return bytes
    }

    /// A compressed chunk's header: its dictionary's identifier (0 for none), the content's
    /// length, and where the frame starts.
    static func header(of stored: UnsafeRawBufferPointer) throws(RecordDecodingError) -> (
        dictionaryID: UInt64, length: Int, frameStart: Int
    ) {
        var reader = RecordReader(stored)
        guard try reader.readByte() == Chunk.Kind.compressed.rawValue else {
            throw reader.failure("not a compressed chunk")
        }
        let dictionaryID = try reader.readVarint()
        let lengthStart = reader.offset
        let length = try reader.readTotal()
        guard length > 0, length <= largestContent, length / 32_768 <= reader.remaining else {
            throw RecordDecodingError(
                offset: lengthStart, reason: "content of \(length) bytes cannot come from \(reader.remaining) bytes")
        }
        return (dictionaryID, length, reader.offset)
    }

    /// Decompresses the frame of a compressed chunk into exactly `length` bytes.
    static func decompress(
        _ frame: UnsafeRawBufferPointer, length: Int, dictionary: DecompressionDictionary?
    ) throws(RecordDecodingError) -> [UInt8] {
        var input = frameMagic
        input.append(contentsOf: frame)
        guard let dctx = DecompressionContexts.shared.take() else {
            throw RecordDecodingError(offset: 0, reason: "zstd could not allocate a decompression context")
        }
        defer { DecompressionContexts.shared.give(dctx) }
        ZSTD_DCtx_refDDict(dctx, dictionary?.ddict)
        var failure: String?
        let content = [UInt8](unsafeUninitializedCapacity: length) { buffer, count in
            let written = input.withUnsafeBytes { source in
                ZSTD_decompressDCtx(dctx, buffer.baseAddress, length, source.baseAddress, source.count)
            }
            if ZSTD_isError(written) != 0 {
                failure = "the compressed content does not decompress (\(String(cString: ZSTD_getErrorName(written))))"
                count = 0
            } else if written != length {
                failure = "the compressed content holds \(written) bytes, the chunk says \(length)"
                count = 0
            } else {
                count = written
            }
        }
        if let failure { throw RecordDecodingError(offset: 0, reason: failure) }
        return content
    }

    /// Trains a dictionary of at most `capacity` bytes on `samples`, each sample one chunk's
    /// content (ZDICT_trainFromBuffer); `nil` when the samples do not allow one.
    static func trainDictionary(on samples: ChunkSamples, capacity: Int = 8_192) -> [UInt8]? {
        guard samples.sizes.count >= 16 else { return nil }
        var dictionary = [UInt8](repeating: 0, count: capacity)
        let size = dictionary.withUnsafeMutableBytes { buffer in
            samples.bytes.withUnsafeBytes { sampleBytes in
                samples.sizes.withUnsafeBufferPointer { sizes in
                    ZDICT_trainFromBuffer(
                        buffer.baseAddress, capacity, sampleBytes.baseAddress, sizes.baseAddress,
                        UInt32(sizes.count))
                }
            }
        }
        guard ZDICT_isError(size) == 0, size > 0 else { return nil }
        dictionary.removeLast(capacity - size)
        return dictionary
    }
}

/// The contents of chunks written before the log had a dictionary, kept to train one.
struct ChunkSamples: Sendable {
    /// The samples, concatenated.
    var bytes: [UInt8] = []
    /// The size of each sample, in order.
    var sizes: [Int] = []

    /// Once the samples hold this many bytes, a dictionary is trained on them.
    static let trainingSize = 128 * 1_024

    mutating func append(_ content: [UInt8]) {
        bytes.append(contentsOf: content)
        sizes.append(content.count)
    }
}

/// A dictionary stored in the log (a chunk of kind `6`), ready to compress with: its chunk
/// identifier and zstd's digested form of its bytes. Immutable, so shared between threads.
final class CompressionDictionary: @unchecked Sendable {
    /// The identifier of the chunk that holds it.
    let id: UInt64
    /// zstd's compression dictionary, read-only once created (zstd allows sharing it).
    let cdict: OpaquePointer

    /// Digests `bytes`; `nil` when zstd refuses them.
    init?(id: UInt64, bytes: UnsafeRawBufferPointer) {
        guard let cdict = ZSTD_createCDict(bytes.baseAddress, bytes.count, ChunkCompression.level) else { return nil }
        self.id = id
        self.cdict = cdict
    }

    deinit { ZSTD_freeCDict(cdict) }
}

/// A dictionary digested for decompression, shared by every reader of the logs that store it.
final class DecompressionDictionary: @unchecked Sendable {
    /// zstd's decompression dictionary, read-only once created (zstd allows sharing it).
    let ddict: OpaquePointer

    init?(bytes: UnsafeRawBufferPointer) {
        guard let ddict = ZSTD_createDDict(bytes.baseAddress, bytes.count) else { return nil }
        self.ddict = ddict
    }

    deinit { ZSTD_freeDDict(ddict) }

    /// Digested dictionaries by the fingerprint of their bytes, so that reading a chunk does not
    /// digest its dictionary again. A few entries: a log holds one dictionary.
    private static let cache = Mutex<[Fingerprint: DecompressionDictionary]>([:])

    /// The digested form of `bytes` (already checked against their chunk's checksum).
    static func cached(for bytes: UnsafeRawBufferPointer) -> DecompressionDictionary? {
        let fingerprint = ContentHash.fingerprint(bytes)
        if let known = cache.withLock({ $0[fingerprint] }) { return known }
        guard let made = DecompressionDictionary(bytes: bytes) else { return nil }
        cache.withLock { cache in
            if cache.count >= 16 { cache.removeAll() }
            cache[fingerprint] = made
        }
        return made
    }
}

/// Compresses chunk content for one writer: a zstd context, and the dictionary when the log has
/// one. Used by one thread at a time (the planner that owns it).
final class ChunkCompressor {
    /// The dictionary chunks are compressed with, or `nil` before the log has one.
    let dictionary: CompressionDictionary?
    private let cctx: OpaquePointer?

    init(dictionary: CompressionDictionary?) {
        self.dictionary = dictionary
        cctx = ZSTD_createCCtx()
        guard let cctx else { return }
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, ChunkCompression.level)
        // The chunk stores the content's length and names its dictionary: the frame need not.
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 0)
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_dictIDFlag, 0)
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 0)
        ZSTD_CCtx_refCDict(cctx, dictionary?.cdict)
    }

    deinit { ZSTD_freeCCtx(cctx) }

    /// A zstd frame of `content`, magic number included; `nil` when zstd fails.
    func compress(_ content: [UInt8]) -> [UInt8]? {
        guard let cctx else { return nil }
        let capacity = ZSTD_compressBound(content.count)
        var failed = false
        let frame = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            let written = content.withUnsafeBytes { source in
                ZSTD_compress2(cctx, buffer.baseAddress, capacity, source.baseAddress, source.count)
            }
            failed = ZSTD_isError(written) != 0
            count = failed ? 0 : written
        }
        return failed || !frame.starts(with: ChunkCompression.frameMagic) ? nil : frame
    }
}

/// A few zstd decompression contexts, reused: creating one per chunk costs more than the
/// chunk's decompression.
final class DecompressionContexts: Sendable {
    static let shared = DecompressionContexts()
    private let idle = Mutex<[UInt]>([])

    /// An idle context, or a new one.
    func take() -> OpaquePointer? {
        if let address = idle.withLock({ $0.popLast() }) { return OpaquePointer(bitPattern: address) }
        return ZSTD_createDCtx()
    }

    /// Returns `context` for reuse (at most 8 are kept idle).
    func give(_ context: OpaquePointer?) {
        guard let context else { return }
        let kept = idle.withLock { idle -> Bool in
            guard idle.count < 8 else { return false }
            idle.append(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(context))))
            return true
        }
        if !kept { ZSTD_freeDCtx(context) }
    }
}
