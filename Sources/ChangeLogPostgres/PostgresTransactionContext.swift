import ChangeLog
import NIOCore
import PostgresNIO

/// The state of one transaction of a PostgreSQL log on its connection: what it read ahead, and
/// (for a write) what it put and has not yet sent.
///
/// Round trips are what an append and a read cost beyond the server's own work, so each query
/// fetches what the log's core asks next:
/// - Reads ahead: a read of the revision after the one read last fetches the next ones in the
///   same round trip, ``readAhead`` at first and twice as many each time the walk goes on (up
///   to ``longestReadAhead``), since the log's readers walk revisions in order. A chunk read
///   after another fetches the ``readAhead`` chunks on each side of it: an append stores its
///   chunks under consecutive identifiers, and a reader asks for a revision's new chunks from
///   its section run down to its items, then for the next revision's, above them.
/// - The latest record is read with the largest chunk identifier, and kept: an append asks for
///   both, then for the latest record again (to check it), in that order.
/// - Writes are kept until the transaction reads anything or commits (so that a read sees what
///   the transaction put), then sent in one statement: its `INSERT`s of chunks and records, the
///   mark of compressed chunks and the commit's notification, as data-modifying `WITH` queries.
final class PostgresTransactionContext {
    let connection: PostgresConnection
    let logID: Int64
    let address: PostgresLogAddress
    /// How many rows a sequential read fetches at once, at first.
    static let readAhead: Int64 = 64
    /// How many records a sequential read fetches at once, at most.
    static let longestReadAhead: Int64 = 1024
    /// How many rows one `INSERT` sends at most.
    static let rowsPerInsert = 500

    private var records: [UInt64: [UInt8]] = [:]
    private var recordsFetched: ClosedRange<UInt64>?
    private var lastRecord: UInt64?
    /// How many records the next sequential read fetches.
    private var recordReadAhead = readAhead
    private var chunks: [UInt64: [UInt8]] = [:]
    private var chunksFetched: ClosedRange<UInt64>?
    private var lastChunk: UInt64?
    /// The largest chunk identifier, read with the latest record; `.some(nil)`: no chunk.
    private var largestChunk: UInt64??
    private var pendingRecords: [(UInt64, [UInt8])] = []
    private var pendingChunks: [(UInt64, [UInt8])] = []
    /// Whether the log's row is to be marked as holding compressed chunks.
    private var pendingCompressedMark = false
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
        let count: Int64
        if lastRecord == revision &- 1 {
            count = recordReadAhead
            recordReadAhead = min(recordReadAhead * 2, Self.longestReadAhead)
        } else {
            count = 1
            recordReadAhead = Self.readAhead
        }
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
        // The window: this chunk alone for a first read, else the neighbours on each side.
        let reach = lastChunk == nil ? 0 : Self.readAhead
        let lower = key - min(key, reach)
        let upper = key > Int64.max - reach ? Int64.max : key + reach
        let rows = try run(
            """
            SELECT chunk_id, chunk FROM changelog_chunks
            WHERE log_id = \(logID) AND chunk_id >= \(lower) AND chunk_id <= \(upper) ORDER BY chunk_id
            """, "reading chunk \(id) of \(address)")
        chunks = [:]
        for row in rows {
            let (stored, bytes) = try decode(row, "reading chunk \(id) of \(address)")
            chunks[stored] = bytes
        }
        chunksFetched = UInt64(lower)...UInt64(upper)
        return chunks[id]
    }

    /// The latest record, read with the largest chunk identifier in one round trip; both are
    /// kept until the transaction puts or deletes rows.
    func latestRecord() throws -> (UInt64, [UInt8])? {
        let what = "reading the latest revision of \(address)"
        let rows = try run(
            """
            SELECT latest.revision, latest.record,
                (SELECT max(chunk_id) FROM changelog_chunks WHERE log_id = \(logID))
            FROM (SELECT 1) AS one LEFT JOIN (
                SELECT revision, record FROM changelog_records WHERE log_id = \(logID) ORDER BY revision DESC LIMIT 1
            ) AS latest ON true
            """, what)
        guard let row = rows.first else { return nil }
        let revision: Int64?
        let buffer: ByteBuffer?
        let chunk: Int64?
        do {
            (revision, buffer, chunk) = try row.decode((Int64?, ByteBuffer?, Int64?).self, context: .default)
        } catch {
            throw PostgresEngineError(what: what, reason: "a row does not decode: \(String(reflecting: error))")
        }
        largestChunk = .some(chunk.map(UInt64.init))
        guard let revision, let buffer else { return nil }
        let latest = (UInt64(revision), Array(buffer.readableBytesView))
        // The core checks the latest record it was given next: keep it as read.
        records = [latest.0: latest.1]
        recordsFetched = latest.0...latest.0
        return latest
    }

    func oldestRevision() throws -> UInt64? {
        try bound("SELECT min(revision) FROM changelog_records WHERE log_id = \(logID)", "the oldest revision")
    }

    func largestChunkID() throws -> UInt64? {
        if let largestChunk { return largestChunk }
        return try bound("SELECT max(chunk_id) FROM changelog_chunks WHERE log_id = \(logID)", "the largest chunk")
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
        largestChunk = nil
    }

    /// Sends what was put and not yet sent in one statement (more only past ``rowsPerInsert``
    /// chunks or records), with the commit's notification on `channel` when given and the
    /// transaction put a record (`LOG_ID:LATEST`, ``PostgresSchema/channel``).
    func sendPending(notifying channel: String? = nil) throws {
        var chunks = pendingChunks[...]
        var records = pendingRecords[...]
        let marksCompressed = pendingCompressedMark
        pendingChunks = []
        pendingRecords = []
        pendingCompressedMark = false
        let notification = channel.flatMap { channel in latestPut.map { (channel, "\(logID):\($0)") } }
        // Rows past one statement's share go first, in statements of their own.
        while chunks.count > Self.rowsPerInsert {
            try send(chunks: chunks.prefix(Self.rowsPerInsert), records: [], marksCompressed: false, notification: nil)
            chunks = chunks.dropFirst(Self.rowsPerInsert)
        }
        while records.count > Self.rowsPerInsert {
            try send(chunks: [], records: records.prefix(Self.rowsPerInsert), marksCompressed: false, notification: nil)
            records = records.dropFirst(Self.rowsPerInsert)
        }
        guard !chunks.isEmpty || !records.isEmpty || marksCompressed || notification != nil else { return }
        try send(chunks: chunks, records: records, marksCompressed: marksCompressed, notification: notification)
    }

    /// One statement: a data-modifying `WITH` query for each of the chunks' `INSERT`, the
    /// records' `INSERT` and the compressed mark (each runs once, whether or not it is
    /// referenced), then the notification, or nothing.
    private func send(
        chunks: ArraySlice<(UInt64, [UInt8])>, records: ArraySlice<(UInt64, [UInt8])>, marksCompressed: Bool,
        notification: (channel: String, payload: String)?
    ) throws {
        var binds = PostgresBindings(capacity: (chunks.count + records.count) * 2 + 3)
        binds.append(logID)
        func values(_ rows: ArraySlice<(UInt64, [UInt8])>) -> String {
            var values: [String] = []
            values.reserveCapacity(rows.count)
            for (key, bytes) in rows {
                binds.append(Int64(key))
                binds.append(ByteBuffer(bytes: bytes))
                values.append("($1, $\(binds.count - 1), $\(binds.count))")
            }
            return values.joined(separator: ", ")
        }
        var queries: [String] = []
        if marksCompressed {
            queries.append(
                "compressed AS (UPDATE changelog_logs SET compressed = true WHERE id = $1 AND NOT compressed)")
        }
        if !chunks.isEmpty {
            queries.append(
                "chunks AS (INSERT INTO changelog_chunks (log_id, chunk_id, chunk) VALUES \(values(chunks)))")
        }
        if !records.isEmpty {
            queries.append(
                "records AS (INSERT INTO changelog_records (log_id, revision, record) VALUES \(values(records)))")
        }
        var sql = queries.isEmpty ? "" : "WITH " + queries.joined(separator: ", ") + " "
        if let notification {
            binds.append(notification.channel)
            binds.append(notification.payload)
            sql += "SELECT pg_notify($\(binds.count - 1), $\(binds.count))"
        } else {
            sql += "SELECT 1"
        }
        _ = try connection.run(
            PostgresQuery(unsafeSQL: sql, binds: binds), address: address, what: "appending to \(address)")
    }

    /// Marks the log's row as holding compressed chunks, with the transaction's next statement.
    func noteCompressedChunks() throws {
        pendingCompressedMark = true
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
