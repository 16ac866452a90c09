#if LMDB
    import Synchronization

    /// The history index's named database (`history`) in a log's LMDB environment, once it is
    /// known to exist: opened with the log, or created by ``LMDBHistoryIndex/catchUp()``.
    final class HistoryDatabaseSlot: Sendable {
        private let database = Mutex<(database: LMDBDatabase?, disabled: Bool)>((nil, false))

        /// The database, or `nil` while the log has none (or this open does not keep it).
        var current: LMDBDatabase? {
            database.withLock { $0.disabled ? nil : $0.database }
        }

        /// Whether this open keeps the index (`ChangeLog.Options.keepsHistoryIndex`).
        var isDisabled: Bool {
            database.withLock { $0.disabled }
        }

        /// Records that the database exists.
        func set(_ opened: LMDBDatabase) {
            database.withLock { $0.database = opened }
        }

        /// Stops this open's appends from writing the index, and its histories from reading it.
        func disable() {
            database.withLock { $0.disabled = true }
        }
    }

    /// The history index on LMDB: the `history` database, whose keys are a subject and the revision
    /// of its first event in a block, each holding a block of the subject's events (the compact form
    /// of ``HistoryEventCoding``), plus a few keys of its own (RecordFormat.md, "The history index").
    ///
    /// A subject's key is a kind byte (`i` for an item, `s` for a section) and its UTF-8 bytes with
    /// every zero byte written as `00 FF`, ended by `00 00`, so that keys sort by subject, then by
    /// revision (8 bytes, big-endian). A subject longer than ``longSubject`` bytes, which LMDB's
    /// key size would not hold, is written as `I` or `S` and its XXH3-128 fingerprint instead.
    ///
    /// An append does not put its events among those of their subjects, which would rewrite a page
    /// of the tree for each subject it touched: it puts them in one key after the revisions before
    /// it, `p` and the revision, whose value lists each subject the revision touched (its kind byte,
    /// its text) and its event. Once ``pendingRevisions`` revisions wait so, one append moves their
    /// events to their subjects' blocks together, rewriting each block once for all of them: a
    /// subject's latest block grows until it holds ``blockBytes`` bytes, then a new one starts.
    /// Readers read both.
    struct LMDBHistoryIndex: HistoryIndexStorage {
        /// The name of the database.
        static let databaseName = "history"
        /// The key of the coverage: the latest revision indexed, 8 bytes big-endian.
        static let coverageKey: [UInt8] = [0]
        /// Subjects longer than this many UTF-8 bytes are keyed by their fingerprint.
        static let longSubject = 400
        /// The kind byte of the revisions whose events wait to be moved to their subjects' blocks.
        static let pendingKind = UInt8(ascii: "p")
        /// The key of the latest revision whose events were moved to their subjects' blocks.
        static let mergedKey: [UInt8] = [1]
        /// How many revisions' events wait before an append moves them.
        static let pendingRevisions: UInt64 = 64
        /// A subject's latest block takes more events until it holds this many bytes.
        static let blockBytes = 448

        /// The log, for messages and for reading its records while the index is built.
        let store: LogStore
        /// The log's LMDB environment and databases.
        let storage: LMDBLogStorage
        let readOnly: Bool

        // MARK: - Keys

        /// The key prefix of `subject`: every key of its blocks starts with it.
        static func prefix(of subject: HistorySubject) -> [UInt8] {
            let (kind, text): (UInt8, String) =
                switch subject {
                case .item(let id): (UInt8(ascii: "i"), id)
                case .section(let title): (UInt8(ascii: "s"), title)
                }
            let bytes = Array(text.utf8)
            if bytes.count > longSubject {
                let fingerprint = ContentHash.fingerprint(bytes)
                return [kind - 32] + fingerprint.high.bigEndianKey + fingerprint.low.bigEndianKey
            }
            var key: [UInt8] = [kind]
            key.reserveCapacity(bytes.count + 11)
            for byte in bytes {
                key.append(byte)
                if byte == 0 { key.append(0xFF) }
            }
            key.append(contentsOf: [0, 0])
            return key
        }

        /// The identifier an item key (kind `i`) starts with, and the length of its prefix.
        static func itemID(inKey key: UnsafeRawBufferPointer) -> (id: String, prefixLength: Int)? {
            guard key.count >= 3, key[0] == UInt8(ascii: "i") else { return nil }
            var bytes: [UInt8] = []
            var index = 1
            while index + 1 < key.count {
                if key[index] == 0 {
                    if key[index + 1] == 0 { return (String(decoding: bytes, as: UTF8.self), index + 2) }
                    index += 2
                    bytes.append(0)
                } else {
                    bytes.append(key[index])
                    index += 1
                }
            }
            return nil
        }

        /// The base revision of `key` when it is a block of the subject whose prefix is `prefix`.
        static func blockRevision(_ key: UnsafeRawBufferPointer, of prefix: [UInt8]) -> UInt64? {
            guard key.count == prefix.count + 8, key.starts(with: prefix) else { return nil }
            return UInt64(bigEndianKey: key[prefix.count...])
        }

        /// The events of a block stored under a key whose base revision is `base`.
        static func events(ofBlock value: UnsafeRawBufferPointer, base: UInt64, in store: LogStore)
            throws(ChangeLogError)
            -> [HistoryEvent]
        {
            do {
                return try HistoryEventCoding.decode(value, base: base)
            } catch {
                throw damaged(error, at: base, in: store)
            }
        }

        /// The error of index bytes that do not decode.
        static func damaged(_ error: RecordDecodingError, at revision: UInt64, in store: LogStore) -> ChangeLogError {
            ChangeLogError(
                code: .malformedRecord,
                message:
                    "the history index of the log at \(store.path) holds an entry from revision \(revision) that does "
                    + "not decode (\(error)); run `replay verify` on the log, and restore it from a backup if it is damaged",
                revision: revision, path: store.path)
        }

        // MARK: - HistoryIndexStorage

        func coverage() throws(ChangeLogError) -> UInt64? {
            guard let database = storage.history.current else { return nil }
            return try Self.coverage(of: database, in: storage)
        }

        /// The coverage stored in `database`.
        static func coverage(of database: LMDBDatabase, in storage: LMDBLogStorage) throws(ChangeLogError) -> UInt64 {
            try storage.readLMDB(during: "reading the history index") { transaction in
                try transaction.value(forKey: coverageKey, in: database).flatMap(UInt64.init(bigEndianKey:)) ?? 0
            }
        }

        func status() throws(ChangeLogError) -> HistoryIndexStatus {
            guard let database = storage.history.current else {
                return HistoryIndexStatus(coverage: nil, entries: 0, bytes: 0)
            }
            let coverage = try Self.coverage(of: database, in: storage)
            let statistics = try storage.readLMDB(during: "reading the history index") { transaction in
                try transaction.statistics(of: database)
            }
            return HistoryIndexStatus(
                coverage: coverage, entries: statistics.entries, bytes: statistics.pages * statistics.pageSize)
        }

        func events(of subject: HistorySubject, in range: ClosedRange<UInt64>) throws(ChangeLogError) -> [HistoryEvent]
        {
            guard let database = storage.history.current else { return [] }
            let prefix = Self.prefix(of: subject)
            let start = prefix + range.lowerBound.bigEndianKey
            return try storage.readLMDB(during: "reading the history index") { transaction in
                try transaction.withCursor(in: database) { cursor in
                    var events: [HistoryEvent] = []
                    // The block before the first at or after the range's start may reach into it.
                    let after = try cursor.move(to: .atOrAfter(start))
                    let back = after ? try cursor.move(to: .previous) : try cursor.move(to: .last)
                    var more = false
                    if back { more = try cursor.withCurrent { key, _ in Self.blockRevision(key, of: prefix) } != nil }
                    if !more { more = try cursor.move(to: .atOrAfter(start)) }
                    while more {
                        let block = try cursor.withCurrent { key, value -> [HistoryEvent]? in
                            guard let base = Self.blockRevision(key, of: prefix), base <= range.upperBound else {
                                return nil
                            }
                            return try Self.events(ofBlock: value, base: base, in: store)
                        }
                        guard let block else { break }
                        events += block.filter { range.contains($0.revision) }
                        more = try cursor.move(to: .next)
                    }
                    // The events that wait, in revision order after the moved ones.
                    more = try cursor.move(to: .atOrAfter([Self.pendingKind] + range.lowerBound.bigEndianKey))
                    while more {
                        let found = try cursor.withCurrent { key, value -> (UInt64, HistoryEvent?)? in
                            guard key.count == 9, key[0] == Self.pendingKind,
                                let revision = UInt64(bigEndianKey: key[1...])
                            else { return nil }
                            let event = try Self.pendingEvents(value, revision: revision, in: store).first {
                                $0.subject == subject
                            }
                            return (revision, event?.event)
                        }
                        guard let found, found.0 <= range.upperBound else { break }
                        if let event = found.1, event.revision > (events.last?.revision ?? 0) { events.append(event) }
                        more = try cursor.move(to: .next)
                    }
                    return events
                }
            }
        }

        func items(containing text: String, limit: Int) throws(ChangeLogError) -> [HistoryItem] {
            guard let database = storage.history.current, limit > 0 else { return [] }
            let needle = text.lowercased()
            func matches(_ id: String) -> Bool { needle.isEmpty || id.lowercased().contains(needle) }
            var found: [String: HistoryItem] = [:]
            func add(_ id: String, first: UInt64, last: UInt64) {
                guard matches(id) else { return }
                var item = found[id] ?? HistoryItem(id: id, firstRevision: first, lastRevision: last)
                item.firstRevision = Swift.min(item.firstRevision, first)
                item.lastRevision = Swift.max(item.lastRevision, last)
                found[id] = item
            }
            try storage.readLMDB(during: "reading the history index") { transaction in
                try transaction.withCursor(in: database) { cursor in
                    var more = try cursor.move(to: .atOrAfter([UInt8(ascii: "i")]))
                    while more {
                        let entry = try cursor.withCurrent { key, _ in
                            Self.itemID(inKey: key).map { ($0.id, Array(key.prefix($0.prefixLength + 8))) }
                        }
                        guard let (id, firstKey) = entry else { break }
                        let prefix = Array(firstKey.dropLast(8))
                        let first = UInt64(bigEndianKey: Array(firstKey.suffix(8))) ?? 0
                        // The item's last block: just before the first key after every block of it.
                        more = try cursor.move(to: .atOrAfter(prefix + [UInt8](repeating: 0xFF, count: 9)))
                        _ = more ? try cursor.move(to: .previous) : try cursor.move(to: .last)
                        let last = try cursor.withCurrent { key, value -> UInt64 in
                            guard let base = Self.blockRevision(key, of: prefix) else { return first }
                            return try Self.events(ofBlock: value, base: base, in: store).last?.revision ?? base
                        }
                        add(id, first: first, last: last)
                        more = try cursor.move(to: .next)
                    }
                    more = try cursor.move(to: .atOrAfter([Self.pendingKind]))
                    while more {
                        let entries = try cursor.withCurrent { key, value -> [(HistorySubject, UInt64)]? in
                            guard key.count == 9, key[0] == Self.pendingKind,
                                let revision = UInt64(bigEndianKey: key[1...])
                            else { return nil }
                            return try Self.pendingEvents(value, revision: revision, in: store).map {
                                ($0.subject, revision)
                            }
                        }
                        guard let entries else { break }
                        for case (.item(let id), let revision) in entries { add(id, first: revision, last: revision) }
                        more = try cursor.move(to: .next)
                    }
                }
            }
            let sorted = found.values.sorted { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
            return Array(sorted.prefix(limit))
        }
    }
#endif
