/// Reading a stored chunk's content: a compressed chunk (kind `5`) is decompressed with the
/// dictionary it names, itself a chunk (kind `6`), before it is decoded; a chunk of another kind
/// is its content as it is.
extension LogReadTransaction where Self: ~Copyable {
    /// Decodes the content of chunk `id` (checksum already checked and removed), decompressing it
    /// first if it is compressed, and fingerprints the plain content.
    ///
    /// `dictionaries` holds the dictionaries this reader already read, checked and digested, by
    /// chunk identifier; one read here is added to it. A reader of consecutive snapshots keeps
    /// it, so that each compressed chunk does not check and digest its dictionary's bytes again
    /// (two hashes of about 8 KB, more than the chunk's own decompression): the same trust as
    /// the chunks the reader keeps decoded, each checked the first time it was read.
    ///
    /// - Throws: ``ChunkFailure`` naming the chunk, or its dictionary when that is missing or
    ///   damaged; the engine's failures.
    func decodeChunk(
        _ stored: UnsafeRawBufferPointer, id: UInt64, dictionaries: inout [UInt64: DecompressionDictionary]
    ) throws -> (chunk: Chunk, fingerprint: Fingerprint) {
        guard stored.first == Chunk.Kind.compressed.rawValue else {
            return try Self.decode(plain: stored, id: id)
        }
        let header: (dictionaryID: UInt64, length: Int, frameStart: Int)
        do throws(RecordDecodingError) {
            header = try ChunkCompression.header(of: stored)
        } catch {
            throw ChunkFailure(chunkID: id, kind: .malformed(error))
        }
        #if !Zstd
            throw ChunkFailure(chunkID: id, kind: .compressionLeftOut)
        #else
            return try decompress(stored, id: id, header: header, dictionaries: &dictionaries)
        #endif
    }

    /// Decompresses the compressed chunk `id`, `stored`, of `header`, and decodes its content.
    private func decompress(
        _ stored: UnsafeRawBufferPointer, id: UInt64, header: (dictionaryID: UInt64, length: Int, frameStart: Int),
        dictionaries: inout [UInt64: DecompressionDictionary]
    ) throws -> (chunk: Chunk, fingerprint: Fingerprint) {
        var dictionary: DecompressionDictionary?
        if header.dictionaryID != 0 {
            if let known = dictionaries[header.dictionaryID] {
                dictionary = known
            } else {
                let read = try self.dictionary(header.dictionaryID, for: id)
                dictionaries[header.dictionaryID] = read
                dictionary = read
            }
        }
        let content: [UInt8]
        do throws(RecordDecodingError) {
            content = try ChunkCompression.decompress(
                UnsafeRawBufferPointer(rebasing: stored[header.frameStart...]), length: header.length,
                dictionary: dictionary)
        } catch {
            throw ChunkFailure(chunkID: id, kind: .malformed(error))
        }
        return try content.withUnsafeBytes { plain in
            guard plain.first != Chunk.Kind.compressed.rawValue, plain.first != Chunk.Kind.dictionary.rawValue
            else {
                throw ChunkFailure(
                    chunkID: id,
                    kind: .malformed(RecordDecodingError(offset: 0, reason: "compressed content of kind \(plain[0])")))
            }
            return try Self.decode(plain: plain, id: id)
        }
    }

    private static func decode(plain: UnsafeRawBufferPointer, id: UInt64) throws -> (
        chunk: Chunk, fingerprint: Fingerprint
    ) {
        do throws(RecordDecodingError) {
            return (try Chunk(content: plain), ContentHash.fingerprint(plain))
        } catch {
            throw ChunkFailure(chunkID: id, kind: .malformed(error))
        }
    }

    /// The dictionary stored as chunk `dictionaryID`, which chunk `user` names.
    private func dictionary(_ dictionaryID: UInt64, for user: UInt64) throws -> DecompressionDictionary {
        try withChunk(dictionaryID) { bytes in
            guard let bytes else { throw ChunkFailure(chunkID: dictionaryID, kind: .missing) }
            switch SealCheck(bytes, seed: dictionaryID) {
            case .valid(let content):
                guard content.first == Chunk.Kind.dictionary.rawValue,
                    let dictionary = DecompressionDictionary.cached(
                        for: UnsafeRawBufferPointer(rebasing: content.dropFirst()))
                else {
                    throw ChunkFailure(
                        chunkID: dictionaryID,
                        kind: .inconsistent("chunk \(user) names it as its dictionary, but it holds no dictionary"))
                }
                return dictionary
            case .tooShort:
                throw ChunkFailure(chunkID: dictionaryID, kind: .checksumMismatch(stored: nil, computed: nil))
            case .mismatch(let stored, let computed):
                throw ChunkFailure(chunkID: dictionaryID, kind: .checksumMismatch(stored: stored, computed: computed))
            }
        }
    }

    /// The dictionary stored as chunk `id`, digested for compression; `nil` when it is not one.
    func compressionDictionary(_ id: UInt64) throws -> CompressionDictionary? {
        try withChunk(id) { bytes in
            guard let bytes, case .valid(let content) = SealCheck(bytes, seed: id),
                content.first == Chunk.Kind.dictionary.rawValue
            else { return nil }
            return CompressionDictionary(id: id, bytes: UnsafeRawBufferPointer(rebasing: content.dropFirst()))
        }
    }
}
