import ChangeLogTestSupport
import Foundation
import ListAdapter
import Testing

@testable import ChangeLog

@Suite("Damaged records")
struct CorruptionTests {
    /// A log with three revisions whose snapshots all differ.
    private func makeLog(at path: String) async throws -> (ChangeLog, [LogSnapshot]) {
        let log = try ChangeLog(path: path)
        let snapshots = try (0..<3).map { try makeSnapshot(sections: 3, itemsPerSection: 10, version: $0) }
        for snapshot in snapshots {
            _ = try await log.append(snapshot)
        }
        return (log, snapshots)
    }

    /// Rewrites the value under `key` in `database` through LMDB, behind the log's back.
    private func tamper(_ log: ChangeLog, key: [UInt8], in database: LMDBDatabase, _ change: (inout [UInt8]) -> Void)
        throws
    {
        try log.store.environment.write { transaction in
            var bytes = try #require(try transaction.value(forKey: key, in: database))
            change(&bytes)
            try transaction.put(bytes, forKey: key, in: database)
        }
    }

    @Test("a flipped byte in a revision record fails its checksum, naming the revision")
    func recordChecksum() async throws {
        try await withTemporaryDirectory { path in
            let (log, snapshots) = try await makeLog(at: path)
            try tamper(log, key: UInt64(2).bigEndianKey, in: log.store.revisions) { $0[$0.count / 2] ^= 0x10 }
            for read in [{ _ = try log.record(at: 2) }, { _ = try log.snapshot(at: 2) }] {
                let error = #expect(throws: ChangeLogError.self) { try read() }
                #expect(error?.code == .checksumMismatch)
                #expect(error?.revision == 2)
                #expect(error?.message.contains("revision 2") == true)
            }
            #expect(try log.snapshot(at: 1) == snapshots[0])
            #expect(try log.snapshot(at: 3) == snapshots[2])
            var read: [UInt64] = []
            let error = await #expect(throws: ChangeLogError.self) {
                for try await record in log.records(in: 1...3, batchSize: 1) {
                    read.append(record.revision)
                }
            }
            #expect(read == [1])
            #expect(error?.revision == 2)
        }
    }

    /// Records are read in batches; a damaged one must not take the good ones of its batch
    /// with it.
    @Test("reading and subscribing deliver every revision before a damaged one, then name it")
    func damageAfterGoodRevisions() async throws {
        try await withTemporaryDirectory { path in
            let (log, _) = try await makeLog(at: path)
            try tamper(log, key: UInt64(3).bigEndianKey, in: log.store.revisions) { $0[$0.count / 2] ^= 0x10 }
            var read: [UInt64] = []
            let readError = await #expect(throws: ChangeLogError.self) {
                for try await record in log.records(in: 1...3) { read.append(record.revision) }
            }
            #expect(read == [1, 2])
            #expect(readError?.revision == 3)
            var delivered: [UInt64] = []
            let subscriptionError = await #expect(throws: ChangeLogError.self) {
                for try await event in log.subscribe(from: 1) {
                    if case .revision(let record) = event { delivered.append(record.revision) }
                }
            }
            #expect(delivered == [1, 2])
            #expect(subscriptionError?.revision == 3)
        }
    }

    @Test("a flipped byte in a snapshot chunk fails its checksum, naming the revision")
    func chunkChecksum() async throws {
        try await withTemporaryDirectory { path in
            let (log, _) = try await makeLog(at: path)
            // The newest chunk belongs to revision 3 only.
            let lastChunk = try log.store.read(during: "reading") { transaction in
                try log.store.nextChunkID(in: transaction) - 1
            }
            try tamper(log, key: lastChunk.bigEndianKey, in: log.store.chunks) { $0[1] ^= 0x01 }
            let error = #expect(throws: ChangeLogError.self) { _ = try log.snapshot(at: 3) }
            #expect(error?.code == .checksumMismatch)
            #expect(error?.revision == 3)
            #expect(error?.message.contains("chunk \(lastChunk)") == true)

            // A missing chunk is named too.
            _ = try log.store.environment.write { transaction in
                try transaction.delete(key: lastChunk.bigEndianKey, in: log.store.chunks)
            }
            let missing = #expect(throws: ChangeLogError.self) { _ = try log.record(at: 3) }
            #expect(missing?.code == .malformedRecord)
            #expect(missing?.revision == 3)
        }
    }

    @Test("a record that passes its checksum but does not decode is a typed error")
    func malformedRecords() async throws {
        try await withTemporaryDirectory { path in
            let (log, snapshots) = try await makeLog(at: path)
            let cases: [(content: [UInt8], code: ChangeLogError.Code)] = [
                ([1, 0, 0xFF], .malformedRecord),  // truncated varint
                ([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7], .malformedRecord),  // trailing bytes
                ([1, 0, 0, 200], .malformedRecord),  // a meta count larger than the record
                ([9, 0], .unsupportedFormat),
                ([], .malformedRecord),
            ]
            for (content, code) in cases {
                try tamper(log, key: UInt64(2).bigEndianKey, in: log.store.revisions) { bytes in
                    var writer = RecordWriter()
                    for byte in content { writer.writeByte(byte) }
                    writer.seal(seed: 2)
                    bytes = writer.bytes
                }
                let error = #expect(throws: ChangeLogError.self) { _ = try log.record(at: 2) }
                #expect(error?.code == code)
                #expect(error?.revision == 2)
            }
            // A record moved under another revision's key fails: checksums are seeded with the revision.
            try tamper(log, key: UInt64(2).bigEndianKey, in: log.store.revisions) { bytes in
                bytes = RevisionRecordBody(
                    version: 1, timestamp: 0, meta: [:], sectionCount: 0, itemCount: 0, sectionRuns: [],
                    changes: LogChanges()
                ).encoded(revision: 1)
            }
            #expect(throws: ChangeLogError.self) { _ = try log.record(at: 2) }
            #expect(try log.snapshot(at: 3) == snapshots[2])
        }
    }

    /// A record or a chunk that passes its checksum (written by a faulty writer, or forged:
    /// XXH3 is no signature) may claim any total; asking for room for it up front aborted the
    /// process.
    @Test("a record or a section chunk claiming huge totals is a typed error, not a crash")
    func hugeTotals() async throws {
        try await withTemporaryDirectory { path in
            let (log, snapshots) = try await makeLog(at: path)
            let body = try log.store.read(during: "reading") { try log.store.body(at: 2, in: $0) }
            func rewriteRecord(sectionCount: Int, itemCount: Int) throws {
                try tamper(log, key: UInt64(2).bigEndianKey, in: log.store.revisions) { bytes in
                    bytes = RevisionRecordBody(
                        version: body.version, timestamp: body.timestamp, meta: body.meta, sectionCount: sectionCount,
                        itemCount: itemCount,
                        sectionRuns: body.sectionRuns, changes: body.changes
                    ).encoded(revision: 2)
                }
            }
            func expectMalformedRevision2() {
                let error = #expect(throws: ChangeLogError.self) { _ = try log.snapshot(at: 2) }
                #expect(error?.code == .malformedRecord)
                #expect(error?.revision == 2)
            }
            try rewriteRecord(sectionCount: 1 << 40, itemCount: body.itemCount)
            expectMalformedRevision2()
            try rewriteRecord(sectionCount: body.sectionCount, itemCount: 1 << 40)
            expectMalformedRevision2()
            // A section chunk of revision 2 claiming 2^40 items, under a record claiming as many.
            let (sectionID, section) = try log.store.read(during: "reading") { transaction in
                let run = try transaction.chunk(body.sectionRuns[0]).chunk
                guard case .sections(let ids) = run else { throw ChunkFailure(kind: .inconsistent("not a run")) }
                return (ids[0], try transaction.chunk(ids[0]).chunk)
            }
            guard case .section(let title, let summary, _, let itemChunks) = section else {
                Issue.record("chunk \(sectionID) is not a section")
                return
            }
            try tamper(log, key: sectionID.bigEndianKey, in: log.store.chunks) { bytes in
                bytes = Chunk.sealed(
                    Chunk.section(title: title, summary: summary, itemCount: 1 << 40, itemChunks: itemChunks).content,
                    id: sectionID)
            }
            expectMalformedRevision2()
            #expect(try log.snapshot(at: 1) == snapshots[0])
            #expect(try log.snapshot(at: 3) == snapshots[2])
        }
    }

    @Test("appending after the latest record was damaged fails, naming it")
    func damagedLatestBlocksAppends() async throws {
        try await withTemporaryDirectory { path in
            let (log, _) = try await makeLog(at: path)
            try tamper(log, key: UInt64(3).bigEndianKey, in: log.store.revisions) { $0[3] ^= 0x40 }
            let error = await #expect(throws: ChangeLogError.self) {
                _ = try await log.append(try makeSnapshot(sections: 1, itemsPerSection: 1))
            }
            #expect(error?.code == .checksumMismatch)
            #expect(error?.revision == 3)
            #expect(try log.latestRevision == 3)
        }
    }

    @Test("a revision missing between the oldest and the latest is damage naming it, not an unknown revision")
    func missingKeyInside() async throws {
        try await withTemporaryDirectory { path in
            let (log, snapshots) = try await makeLog(at: path)
            // A damaged key: the record is no longer under revision 2's.
            let deleted = try log.store.environment.write { transaction in
                try transaction.delete(key: UInt64(2).bigEndianKey, in: log.store.revisions)
            }
            #expect(deleted)
            let error = #expect(throws: ChangeLogError.self) { _ = try log.record(at: 2) }
            #expect(error?.code == .malformedRecord)
            #expect(error?.revision == 2)
            #expect(error?.message.contains("revision 2 is missing from the log at \(path), which holds") == true)
            #expect(try log.snapshot(at: 3) == snapshots[2])
            let report = try await log.verify()
            #expect(report.failure?.revision == 2, "\(report)")
            #expect(report.failure?.code == .unreadable)
            // After the latest revision, a revision is only not there yet.
            let after = #expect(throws: ChangeLogError.self) { _ = try log.record(at: 4) }
            #expect(after?.code == .revisionNotFound)
        }
    }

    /// LMDB reads its pages through the map, past the file's end too, where the process would
    /// die of `SIGBUS`.
    @Test("a data file cut short is refused before a page past its end is read, open or not")
    func truncatedDataFile() async throws {
        try await withTemporaryDirectory { path in
            let (log, _) = try await makeLog(at: path)
            #expect(truncate(path + "/data.mdb", 3 * 4096) == 0)
            let read = #expect(throws: ChangeLogError.self) { _ = try log.record(at: 3) }
            #expect(read?.code == .storage)
            #expect(read?.message.contains("its data file is damaged, or was cut short behind its back") == true)
            let append = await #expect(throws: ChangeLogError.self) {
                _ = try await log.append(try makeSnapshot(sections: 1, itemsPerSection: 1))
            }
            #expect(append?.message.contains("cut short") == true, "\(String(describing: append))")
        }
        try await withTemporaryDirectory { path in
            _ = try await makeLog(at: path)
            #expect(truncate(path + "/data.mdb", 3 * 4096) == 0)
            for readOnly in [false, true] {
                let open = #expect(throws: ChangeLogError.self) {
                    _ = try ChangeLog(path: path, options: .init(readOnly: readOnly))
                }
                #expect(open?.code == .cannotOpen)
                #expect(open?.message.contains("shorter than the pages its header says are in use") == true)
            }
        }
    }

    /// `mdb_txn_begin` reads the two meta pages through the map: a file cut shorter than them
    /// killed the process with `SIGBUS`, and zeroed meta pages failed LMDB's assertion
    /// `root > 1` (`abort`), both in an open log's next transaction.
    @Test(
        "a data file cut shorter than its meta pages, or with its meta pages zeroed, is refused by an open log",
        arguments: ["cut to 0", "cut to 1 page", "meta pages zeroed"])
    func metaPagesGone(damage: String) async throws {
        try await withTemporaryDirectory { path in
            let (log, _) = try await makeLog(at: path)
            let file = path + "/data.mdb"
            switch damage {
            case "cut to 0": #expect(truncate(file, 0) == 0)
            // LMDB's pages are the system's.
            case "cut to 1 page": #expect(truncate(file, off_t(sysconf(Int32(_SC_PAGESIZE)))) == 0)
            default:
                let descriptor = open(file, O_WRONLY)
                #expect(descriptor >= 0)
                let zeros = [UInt8](repeating: 0, count: 2 * sysconf(Int32(_SC_PAGESIZE)))
                #expect(pwrite(descriptor, zeros, zeros.count, 0) == zeros.count)
                close(descriptor)
            }
            let read = #expect(throws: ChangeLogError.self) { _ = try log.record(at: 1) }
            #expect(read?.code == .storage, "\(String(describing: read))")
            #expect(read?.message.contains("its data file is damaged, or was cut short behind its back") == true)
            #expect(throws: ChangeLogError.self) { _ = try log.latestRevision }
            let append = await #expect(throws: ChangeLogError.self) {
                _ = try await log.append(try makeSnapshot(sections: 1, itemsPerSection: 1))
            }
            #expect(append?.message.contains("cut short") == true, "\(String(describing: append))")
            _ = log.bytesInUse
        }
    }

    /// LMDB trusts the sizes in its pages: a value whose size was damaged in the file would
    /// have been read past the file's end (`SIGBUS`) or past the map (`SIGSEGV`).
    @Test(
        "a value whose stored size reaches past the data file, or past the map, is refused, not read",
        arguments: [0x0020, 0x4000] as [UInt16])
    func sizePastTheFile(high: UInt16) async throws {
        try await withTemporaryDirectory { path in
            let (log, snapshots) = try await makeLog(at: path)
            try damageSize(ofRevision: 2, of: log, high: high)
            for read in [{ _ = try log.record(at: 2) }, { _ = try log.snapshot(at: 2) }] {
                let error = #expect(throws: ChangeLogError.self) { try read() }
                #expect(error?.code == .malformedRecord && error?.revision == 2, "\(String(describing: error))")
                #expect(error?.message.contains("LMDB reports its file damaged while reading revision 2") == true)
            }
            #expect(try log.snapshot(at: 1) == snapshots[0])
            let report = try await log.verify()
            #expect(report.failure?.revision == 2, "\(report)")
        }
    }

    /// `/proc` files report a size of 0: Foundation's readers returned the first 4 KB of
    /// `/proc/self/maps`, about 30 lines, and the bounds of most logs went unchecked.
    @Test("the map of every open log is found, in a process with many mappings")
    func mapsOfManyLogs() throws {
        try withTemporaryDirectory { path in
            let logs = try (0..<40).map { try ChangeLog(path: path + "/log-\($0)") }
            for log in logs {
                var status = stat()
                #expect(stat(log.path + "/data.mdb", &status) == 0)
                let lent = try log.store.environment.read { transaction in
                    try transaction.withValue(forKey: LogStore.formatKey, in: log.store.meta) {
                        UInt(bitPattern: $0?.baseAddress)
                    }
                }
                let maps =
                    MappedFileBounds.mappings(ofDevice: UInt64(status.st_dev), inode: UInt64(status.st_ino)) ?? []
                #expect(maps.contains { $0.contains(lent) }, "\(log.path): \(maps)")
            }
        }
    }

    @Test("decoding damaged bytes never traps")
    func fuzzDecoding() throws {
        var generator = SeededGenerator(seed: 7)
        let changes = try snapshot([("A", ["a:1", "b"]), ("B", ["c:3"])])
            .changes(to: try snapshot([("B", ["b", "c:4"]), ("C", ["d"])]))
        let body = RevisionRecordBody(
            version: 2, timestamp: 1_795_168_800_000, meta: ["k": "v", "ü": "✓"], sectionCount: 2, itemCount: 3,
            sectionRuns: [1, 300, 70_000], changes: changes)
        let sealed = body.encoded(revision: 5)
        let content = Array(sealed.dropLast(8))
        var decoded = 0
        for _ in 0..<3000 {
            var damaged = content
            switch Int.random(in: 0..<3, using: &generator) {
            case 0:
                damaged[Int.random(in: 0..<damaged.count, using: &generator)] = UInt8.random(
                    in: 0...255, using: &generator)
            case 1:
                damaged.removeLast(Int.random(in: 1..<damaged.count, using: &generator))
            default:
                damaged.insert(
                    UInt8.random(in: 0...255, using: &generator),
                    at: Int.random(in: 0...damaged.count, using: &generator))
            }
            var writer = RecordWriter()
            for byte in damaged { writer.writeByte(byte) }
            writer.seal(seed: 5)
            if (try? writer.bytes.withUnsafeBytes { try RevisionRecordBody(decoding: $0, revision: 5) }) != nil {
                decoded += 1
            }
            let chunkContent = Chunk.items([.init(id: "a", summary: "b"), .init(id: "c")]).content
            var damagedChunk = chunkContent
            damagedChunk[Int.random(in: 0..<damagedChunk.count, using: &generator)] = UInt8.random(
                in: 0...255, using: &generator)
            _ = try? damagedChunk.withUnsafeBytes { try Chunk(content: $0) }
        }
        // Every damaged record was judged without trapping; a few changes (such as a different
        // index) still decode, which is why records carry checksums.
        #expect(decoded < 3000)
        #expect(try sealed.withUnsafeBytes { try RevisionRecordBody(decoding: $0, revision: 5) } == body)
    }
}

/// Sets the high half of the stored size of `revision`'s record in `log`'s data file to `high`
/// (``FileDamage/inflateRecordSize(ofRevision:ofLogAt:high:)``), behind LMDB's back.
func damageSize(ofRevision revision: UInt64, of log: ChangeLog, high: UInt16) throws {
    #expect(try FileDamage.inflateRecordSize(ofRevision: revision, ofLogAt: log.path, high: high) >= 1)
}
