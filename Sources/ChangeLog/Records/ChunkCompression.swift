#if Zstd
    import CZstd
#endif

/// zstd compression of chunk content (RecordFormat.md, "Compressed chunks"): a compressed chunk
/// (kind `5`) names the dictionary it was compressed with, a chunk of kind `6` of its own, and
/// holds its content's length and a zstd frame without its 4-byte magic number.
///
/// Built without the package trait `Zstd`, nothing is compressed (no dictionary is trained),
/// and reading a compressed chunk throws ``ChunkFailure/Kind/compressionLeftOut``.
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
        #if Zstd
            try decompressWithZstd(frame, length: length, dictionary: dictionary)
        #else
            throw RecordDecodingError(offset: 0, reason: "compressed with zstd, which this build leaves out")
        #endif
    }

    #if Zstd
        private static func decompressWithZstd(
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
                    failure =
                        "the compressed content does not decompress (\(String(cString: ZSTD_getErrorName(written))))"
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
    #endif

    /// Trains a dictionary of at most `capacity` bytes on `samples`, each sample one chunk's
    /// content (ZDICT_trainFromBuffer); `nil` when the samples do not allow one.
    static func trainDictionary(on samples: ChunkSamples, capacity: Int = 8_192) -> [UInt8]? {
        #if Zstd
            trainDictionaryWithZstd(on: samples, capacity: capacity)
        #else
            nil
        #endif
    }

    #if Zstd
        private static func trainDictionaryWithZstd(on samples: ChunkSamples, capacity: Int) -> [UInt8]? {
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
    #endif
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
