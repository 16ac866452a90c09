import ChangeLog
import NIOCore
import PostgresNIO

/// The state of one transaction of a PostgreSQL log on its connection: what it read ahead, and
/// (for a write) what it put and has not yet sent.
///
/// Reads ahead: a read of the revision (or chunk) after the one read last fetches the next
/// ``readAhead`` in the same round trip, since the log's readers walk revisions in order.
/// Writes are sent in multi-row `INSERT`s: before the transaction reads anything, and before
/// it commits, so that a read sees what the transaction put.
final class PostgresTransactionContext {
    let connection: PostgresConnection
    let logID: Int64
    let address: PostgresLogAddress
    /// How many rows a sequential read fetches at once.
    static let readAhead: Int64 = 64
    /// How many rows one `INSERT` sends at most.
    static let rowsPerInsert = 500

    private var records: [UInt64: [UInt8]] = [:]
    private var recordsFetched: ClosedRange<UInt64>?
    private var lastRecord: UInt64?
    private var chunks: [UInt64: [UInt8]] = [:]
    private var chunksFetched: ClosedRange<UInt64>?
    private var lastChunk: UInt64?
    private var pendingRecords: [(UInt64, [UInt8])] = []
    private var pendingChunks: [(UInt64, [UInt8])] = []
    /// The latest revision this transaction put, for its commit's notification.
    private(set) var latestPut: UInt64?
    /// The bytes of the record of ``latestPut``, by which a commit whose reply was lost is
    /// recognised (``PostgresCommitOutcome``).
    private(set) var latestPutRecord: [UInt8]?

    init(connection: PostgresConnection, logID: Int64, address: PostgresLogAddress) {
        self.connection = connection
        self.logID = logID
        self.address = address
    }

    private func run(_ query: PostgresQuery, _ what: @autoclosure () -> String) throws -> [PostgresRow] {
        try sendPending()
        return try connection.run(query, address: address, what: what())
    }

    // MARK: - Reading

    func record(at revision: UInt64) throws -> [UInt8]? {
        defer { lastRecord = revision }
        if let recordsFetched, recordsFetched.contains(revision) { return records[revision] }
        guard let key = Int64(exactly: revision) else { return nil }
        let count = lastRecord == revision &- 1 ? Self.readAhead : 1
        let rows = try run(
            """
            SELECT revision, record FROM changelog_records
            WHERE log_id = \(logID) AND revision >= \(key) AND revision < \(key &+ count) ORDER BY revision
            """, "reading revision \(revision) of \(address)")
        records = [:]
        for row in rows {
            let (stored, bytes) = try decode(row, "reading revision \(revision) of \(address)")
            records[stored] = bytes
        }
        recordsFetched = revision...(revision + UInt64(count) - 1)
        return records[revision]
    }

    func chunk(_ id: UInt64) throws -> [UInt8]? {
        defer { lastChunk = id }
        if let chunksFetched, chunksFetched.contains(id) { return chunks[id] }
        guard let key = Int64(exactly: id) else { return nil }
        let count = lastChunk == id &- 1 ? Self.readAhead : 1
        let rows = try run(
            """
            SELECT chunk_id, chunk FROM changelog_chunks
            WHERE log_id = \(logID) AND chunk_id >= \(key) AND chunk_id < \(key &+ count) ORDER BY chunk_id
            """, "reading chunk \(id) of \(address)")
        chunks = [:]
        for row in rows {
            let (stored, bytes) = try decode(row, "reading chunk \(id) of \(address)")
            chunks[stored] = bytes
        }
        chunksFetched = id...(id + UInt64(count) - 1)
        return chunks[id]
    }

    func latestRecord() throws -> (UInt64, [UInt8])? {
        let rows = try run(
            """
            SELECT revision, record FROM changelog_records WHERE log_id = \(logID) ORDER BY revision DESC LIMIT 1
            """, "reading the latest revision of \(address)")
        return try rows.first.map { try decode($0, "reading the latest revision of \(address)") }
    }

    func oldestRevision() throws -> UInt64? {
        try bound("SELECT min(revision) FROM changelog_records WHERE log_id = \(logID)", "the oldest revision")
    }

    func largestChunkID() throws -> UInt64? {
        try bound("SELECT max(chunk_id) FROM changelog_chunks WHERE log_id = \(logID)", "the largest chunk")
    }

    private func bound(_ query: PostgresQuery, _ what: String) throws -> UInt64? {
        let rows = try run(query, "reading \(what) of \(address)")
        guard let value = try rows.first?.decode(Int64?.self, context: .default) else { return nil }
        return UInt64(value)
    }

    private func decode(_ row: PostgresRow, _ what: String) throws -> (UInt64, [UInt8]) {
        do {
            let (key, buffer) = try row.decode((Int64, ByteBuffer).self, context: .default)
            return (UInt64(key), Array(buffer.readableBytesView))
        } catch {
            throw PostgresEngineError(what: what, reason: "a row does not decode: \(String(reflecting: error))")
        }
    }

    // MARK: - Writing

    func put(chunk bytes: [UInt8], id: UInt64) throws {
        guard Int64(exactly: id) != nil else {
            throw PostgresEngineError(what: "putting chunk \(id)", reason: "the identifier is past 2^63 - 1")
        }
        pendingChunks.append((id, bytes))
        invalidate()
    }

    func put(record bytes: [UInt8], revision: UInt64) throws {
        guard Int64(exactly: revision) != nil else {
            throw PostgresEngineError(what: "putting revision \(revision)", reason: "the revision is past 2^63 - 1")
        }
        pendingRecords.append((revision, bytes))
        latestPut = revision
        latestPutRecord = bytes
        invalidate()
    }

    /// Forgets what was read ahead: the transaction changed the rows.
    private func invalidate() {
        records = [:]
        recordsFetched = nil
        chunks = [:]
        chunksFetched = nil
    }

    /// Sends the rows put and not yet sent, chunks first (a record refers to its chunks).
    func sendPending() throws {
        if !pendingChunks.isEmpty {
            let rows = pendingChunks
            pendingChunks = []
            try insert(rows, into: "changelog_chunks (log_id, chunk_id, chunk)", what: "appending chunks to")
        }
        if !pendingRecords.isEmpty {
            let rows = pendingRecords
            pendingRecords = []
            try insert(rows, into: "changelog_records (log_id, revision, record)", what: "appending revisions to")
        }
    }

    private func insert(_ rows: [(UInt64, [UInt8])], into table: String, what: String) throws {
        var start = 0
        while start < rows.count {
            let part = rows[start..<min(start + Self.rowsPerInsert, rows.count)]
            var binds = PostgresBindings(capacity: part.count * 2 + 1)
            binds.append(logID)
            var values: [String] = []
            for (key, bytes) in part {
                binds.append(Int64(key))
                binds.append(ByteBuffer(bytes: bytes))
                values.append("($1, $\(binds.count - 1), $\(binds.count))")
            }
            _ = try connection.run(
                PostgresQuery(unsafeSQL: "INSERT INTO \(table) VALUES " + values.joined(separator: ", "), binds: binds),
                address: address, what: "\(what) \(address)")
            start += part.count
        }
    }

    func noteCompressedChunks() throws {
        _ = try run(
            "UPDATE changelog_logs SET compressed = true WHERE id = \(logID) AND NOT compressed",
            "marking \(address) as holding compressed chunks")
    }

    func deleteRecord(_ revision: UInt64) throws {
        guard let key = Int64(exactly: revision) else { return }
        _ = try run(
            "DELETE FROM changelog_records WHERE log_id = \(logID) AND revision = \(key)",
            "dropping revision \(revision) of \(address)")
        invalidate()
    }

    /// Walks every chunk of the log in pages of ``rowsPerInsert`` and deletes those
    /// `shouldDelete` picks.
    func deleteChunks(where shouldDelete: (UInt64?, UnsafeRawBufferPointer) throws -> Bool) throws -> Int {
        var after: Int64 = -1
        var doomed: [Int64] = []
        while true {
            let rows = try run(
                """
                SELECT chunk_id, chunk FROM changelog_chunks WHERE log_id = \(logID) AND chunk_id > \(after)
                ORDER BY chunk_id LIMIT \(Self.rowsPerInsert)
                """, "reading the chunks of \(address)")
            guard !rows.isEmpty else { break }
            for row in rows {
                let (id, bytes) = try decode(row, "reading the chunks of \(address)")
                after = Int64(id)
                if try bytes.withUnsafeBytes({ try shouldDelete(id, $0) }) { doomed.append(Int64(id)) }
            }
        }
        var start = 0
        while start < doomed.count {
            let part = doomed[start..<min(start + 1000, doomed.count)]
            _ = try run(
                PostgresQuery(
                    unsafeSQL: "DELETE FROM changelog_chunks WHERE log_id = \(logID) AND chunk_id IN ("
                        + part.map(String.init).joined(separator: ", ") + ")"),
                "dropping chunks of \(address)")
            start += part.count
        }
        invalidate()
        return doomed.count
    }
}
