import ChangeLogTestSupport
import Foundation
import ListAdapter
import ListFormat
import Testing

@testable import ChangeLog

@Suite("Compressed chunks")
struct ChunkCompressionTests {
    /// Revision `revision` of a history whose every summary changes each revision: 4 sections of
    /// 100 items, about 15 KB of chunk content a revision, so that a dozen revisions pass the
    /// samples a dictionary is trained on.
    static func snapshot(_ revision: Int) throws -> LogSnapshot {
        try LogSnapshot(
            sections: (0..<4).map { section in
                LogSnapshot.Section(
                    title: "Sources/Module\(section)",
                    items: (0..<100).map { item in
                        let hash = String(
                            UInt64(revision * 7_919 + item) &* 0x9E37_79B9_7F4A_7C15, radix: 16)
                        return LogSnapshot.Item(id: "Sources/Module\(section)/File\(item).swift", summary: hash)
                    })
            })
    }

    /// Each stored chunk's identifier and value.
    static func storedChunks(of log: ChangeLog) throws -> [(id: UInt64, value: [UInt8])] {
        try log.store.environment.read { transaction in
            try transaction.withCursor(in: log.store.chunks) { cursor in
                var chunks: [(id: UInt64, value: [UInt8])] = []
                var more = try cursor.move(to: .first)
                while more {
                    let (key, value) = try cursor.current()
                    chunks.append((try #require(UInt64(bigEndianKey: key)), value))
                    more = try cursor.move(to: .next)
                }
                return chunks
            }
        }
    }

    /// The log's layout version byte.
    static func layoutVersion(of log: ChangeLog) throws -> [UInt8]? {
        try log.store.environment.read { try $0.value(forKey: LogStore.formatKey, in: log.store.meta) }
    }

    /// The dictionary a compressed chunk's stored value names.
    static func dictionaryID(of value: [UInt8]) throws -> UInt64 {
        try value.withUnsafeBytes { try ChunkCompression.header(of: $0).dictionaryID }
    }

    @Test("a log trains a dictionary on its chunks, stores it, compresses with it, and reads every revision back")
    func trainsAndReadsBack() async throws {
        try await withTemporaryDirectory { path in
            let snapshots = try (0..<16).map(Self.snapshot)
            do {
                let log = try ChangeLog(path: path)
                #expect(try Self.layoutVersion(of: log) == [LMDBLogStorage.layoutVersion])
                for snapshot in snapshots.prefix(12) { _ = try await log.append(snapshot) }
            }
            // Reopened: the writer finds the dictionary through the latest revision's chunks.
            let log = try ChangeLog(path: path)
            for snapshot in snapshots.dropFirst(12) { _ = try await log.append(snapshot) }
            let chunks = try Self.storedChunks(of: log)
            let dictionaries = chunks.filter { $0.value.first == Chunk.Kind.dictionary.rawValue }
            #expect(dictionaries.count == 1)
            let dictionary = try #require(dictionaries.first).id
            let compressed = chunks.filter { $0.value.first == Chunk.Kind.compressed.rawValue }
            let afterDictionary = compressed.filter { $0.id > dictionary }
            #expect(!afterDictionary.isEmpty)
            #expect(try afterDictionary.allSatisfy { try Self.dictionaryID(of: $0.value) == dictionary })
            #expect(try Self.layoutVersion(of: log) == [LMDBLogStorage.compressedLayoutVersion])
            for (offset, snapshot) in snapshots.enumerated() {
                #expect(try log.snapshot(at: UInt64(offset + 1)) == snapshot)
            }
            let report = try await log.verify()
            #expect(report.isValid, "\(report)")
            // Dropping revisions keeps the dictionary the remaining chunks name.
            _ = try await log.dropRevisions(before: 16)
            #expect(try log.snapshot(at: 16) == snapshots[15])
        }
    }

    @Test("a small history stores no more bytes than before chunks were compressed")
    func smallHistoryDoesNotGrow() async throws {
        let history = try FormatOneLogTests.lines("history.jsonl").map {
            try InterchangeFormat.readImportLine(Array($0.utf8))
        }
        try await FormatOneLogTests.withFixtureLog { old in
            try await withTemporaryDirectory { path in
                let log = try ChangeLog(path: path)
                for line in history { _ = try await log.append(line.snapshot, meta: line.meta) }
                let oldChunks = try Self.storedChunks(of: old)
                let newChunks = try Self.storedChunks(of: log)
                #expect(newChunks.count == oldChunks.count)
                let oldBytes = oldChunks.reduce(0) { $0 + $1.value.count }
                let newBytes = newChunks.reduce(0) { $0 + $1.value.count }
                #expect(newBytes < oldBytes)
                #expect(newChunks.contains { $0.value.first == Chunk.Kind.compressed.rawValue })
            }
        }
    }

    @Test("a damaged dictionary or compressed chunk is reported as damage naming the revision")
    func damage() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            for revision in 0..<14 { _ = try await log.append(try Self.snapshot(revision)) }
            let chunks = try Self.storedChunks(of: log)
            let dictionary = try #require(chunks.first { $0.value.first == Chunk.Kind.dictionary.rawValue })
            let compressed = try #require(chunks.last { $0.value.first == Chunk.Kind.compressed.rawValue })
            try #require(try Self.dictionaryID(of: compressed.value) == dictionary.id)

            // A compressed chunk whose frame is garbage under a valid checksum: malformed, not a trap.
            try log.store.environment.write { transaction in
                var content = Array(compressed.value.dropLast(8))
                for index in (content.count - 12)..<content.count { content[index] = 0xA5 }
                try transaction.put(
                    Chunk.sealed(content, id: compressed.id), forKey: compressed.id.bigEndianKey, in: log.store.chunks)
            }
            let malformed = #expect(throws: ChangeLogError.self) { _ = try log.snapshot(at: 14) }
            #expect(malformed?.code == .malformedRecord)
            #expect(malformed?.revision == 14)
            #expect(malformed?.message.contains("chunk \(compressed.id)") == true)
            try log.store.environment.write { transaction in
                try transaction.put(compressed.value, forKey: compressed.id.bigEndianKey, in: log.store.chunks)
            }
            #expect(try log.snapshot(at: 14) == (try Self.snapshot(13)))

            // A flipped byte in the dictionary fails its checksum, named through the revision.
            try log.store.environment.write { transaction in
                var bytes = dictionary.value
                bytes[bytes.count / 2] ^= 0x01
                try transaction.put(bytes, forKey: dictionary.id.bigEndianKey, in: log.store.chunks)
            }
            let error = #expect(throws: ChangeLogError.self) { _ = try log.snapshot(at: 14) }
            #expect(error?.code == .checksumMismatch)
            #expect(error?.revision == 14)
            #expect(error?.message.contains("chunk \(dictionary.id)") == true)
            let report = try await log.verify()
            #expect(!report.isValid)
        }
    }

    @Test("decompressing damaged bytes never traps")
    func fuzzDecompression() throws {
        var generator = SeededGenerator(seed: 11)
        let content = Array("a chunk's content, repeated: a chunk's content, repeated".utf8)
        let compressor = ChunkCompressor(dictionary: nil)
        let stored = ChunkCompression.encode([Chunk.Kind.items.rawValue] + content, with: compressor)
        #expect(stored.first == Chunk.Kind.compressed.rawValue)
        for _ in 0..<2_000 {
            var bytes = stored
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                bytes[Int.random(in: 1..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            if Bool.random(using: &generator) {
                bytes.removeLast(Int.random(in: 0..<(bytes.count - 1), using: &generator))
            }
            var selected: [UInt8] = [3]
            selected.append(contentsOf: bytes)
            _ = selected.withUnsafeBytes { FuzzEntryPoints.decodeRecord($0) }
        }
    }
}
