#if !Zstd
    // What stands in for zstd (ZstdCompression.swift) in a build without the package trait
    // `Zstd`: no dictionary is ever digested and nothing is compressed, so the writer stores
    // every chunk as it is, and ``ChunkCompression/decompress(_:length:dictionary:)`` refuses.

    /// A log's compression dictionary: never made without zstd, so a writer of a log that has
    /// one goes on without it and stores its chunks uncompressed.
    final class CompressionDictionary: Sendable {
        /// The identifier of the chunk that holds it.
        let id: UInt64

        /// `nil`: this build cannot digest a dictionary.
        init?(id: UInt64, bytes: UnsafeRawBufferPointer) { return nil }
    }

    /// A dictionary digested for decompression: never made without zstd.
    final class DecompressionDictionary: Sendable {
        /// `nil`: this build cannot digest a dictionary.
        init?(bytes: UnsafeRawBufferPointer) { return nil }

        /// `nil`: this build cannot digest a dictionary.
        static func cached(for bytes: UnsafeRawBufferPointer) -> DecompressionDictionary? { nil }
    }

    /// A writer's compressor without zstd: it compresses nothing.
    final class ChunkCompressor {
        /// Always `nil`.
        let dictionary: CompressionDictionary?

        init(dictionary: CompressionDictionary?) { self.dictionary = nil }

        /// `nil`: the chunk is stored as it is.
        func compress(_ content: [UInt8]) -> [UInt8]? { nil }
    }
#endif
