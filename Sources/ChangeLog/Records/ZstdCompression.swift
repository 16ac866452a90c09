#if Zstd
    import CZstd
    import Synchronization

    // zstd's side of chunk compression (``ChunkCompression``): dictionaries digested for
    // compressing and for decompressing, a writer's compression context, reusable decompression
    // contexts. Built with the package trait `Zstd`; ZstdLeftOut.swift stands in without it.

    /// A dictionary stored in the log (a chunk of kind `6`), ready to compress with: its chunk
    /// identifier and zstd's digested form of its bytes. Immutable, so shared between threads.
    final class CompressionDictionary: @unchecked Sendable {
        /// The identifier of the chunk that holds it.
        let id: UInt64
        /// zstd's compression dictionary, read-only once created (zstd allows sharing it).
        let cdict: OpaquePointer

        /// Digests `bytes`; `nil` when zstd refuses them.
        init?(id: UInt64, bytes: UnsafeRawBufferPointer) {
            guard let cdict = ZSTD_createCDict(bytes.baseAddress, bytes.count, ChunkCompression.level) else {
                return nil
            }
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
#endif
