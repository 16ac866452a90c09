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

/// The history index on LMDB: the `history` database, whose keys are a subject and a revision
/// that touched it, with empty values, plus one key for the coverage (RecordFormat.md,
/// "The history index").
///
/// A subject's key is a kind byte (`i` for an item, `s` for a section) and its UTF-8 bytes with
/// every zero byte written as `00 FF`, ended by `00 00`, so that keys sort by subject, then by
/// revision (8 bytes, big-endian). A subject longer than ``longSubject`` bytes, which LMDB's
/// key size would not hold, is written as `I` or `S` and its XXH3-128 fingerprint instead.
///
/// An append does not put its entries among those of their subjects, which would rewrite a page
/// of the tree for each subject it touched: it puts them after the entries of the revisions
/// before it, as `p`, the revision and the subject's key, all in a few pages. Once
/// ``pendingRevisions`` revisions wait so, one append moves their entries to their subjects'
/// places together, rewriting each page once for all of them. Readers read both.
struct LMDBHistoryIndex: HistoryIndexStorage {
    /// The name of the database.
    static let databaseName = "history"
    /// The key of the coverage: the latest revision indexed, 8 bytes big-endian.
    static let coverageKey: [UInt8] = [0]
    /// Subjects longer than this many UTF-8 bytes are keyed by their fingerprint.
    static let longSubject = 400
    /// The kind byte of the entries that wait to be moved to their subjects' places.
    static let pendingKind = UInt8(ascii: "p")
    /// The key of the latest revision whose entries were moved to their subjects' places.
    static let mergedKey: [UInt8] = [1]
    /// How many revisions' entries wait before an append moves them.
    static let pendingRevisions: UInt64 = 64

    let store: LogStore
    let readOnly: Bool

    // MARK: - Keys

    /// The key prefix of `subject`: every key of its revisions starts with it.
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

    // MARK: - Writing, inside the log's transactions

    /// Adds the entries of `revision`, which touched `touched`, and advances the coverage to it
    /// when it covered the revision before.
    static func add(
        _ touched: HistoryAnalysis.Touched, revision: UInt64, to database: LMDBDatabase,
        in transaction: borrowing LMDBTransaction
    ) throws {
        let pending = [pendingKind] + revision.bigEndianKey
        for key in touched.subjects.map(prefix(of:)).sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            try transaction.put([], forKey: pending + key, in: database)
        }
        let coverage = try transaction.value(forKey: coverageKey, in: database).flatMap(UInt64.init(bigEndianKey:))
        if coverage == revision - 1 {
            try transaction.put(revision.bigEndianKey, forKey: coverageKey, in: database)
        }
        let merged = try transaction.value(forKey: mergedKey, in: database).flatMap(UInt64.init(bigEndianKey:)) ?? 0
        if revision >= merged + pendingRevisions {
            try mergePending(through: revision, in: database, transaction: transaction)
        }
    }

    /// Moves the waiting entries of the revisions up to `revision` to their subjects' places.
    static func mergePending(
        through revision: UInt64, in database: LMDBDatabase, transaction: borrowing LMDBTransaction
    ) throws {
        var moved: [[UInt8]] = []
        try transaction.withCursor(in: database) { cursor in
            var more = try cursor.move(to: .atOrAfter([pendingKind]))
            while more {
                let key = try cursor.currentKey()
                guard key.first == pendingKind, key.count > 9,
                    let entryRevision = UInt64(bigEndianKey: key[1..<9]), entryRevision <= revision
                else { break }
                moved.append(Array(key[9...]) + entryRevision.bigEndianKey)
                try cursor.deleteCurrent()
                more = try cursor.move(to: .atOrAfter([pendingKind]))
            }
        }
        for key in moved.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            try transaction.put([], forKey: key, in: database)
        }
        try transaction.put(revision.bigEndianKey, forKey: mergedKey, in: database)
    }

    /// The revision of an entry's key (subject then revision, or a waiting entry's), or `nil`
    /// for the index's own keys.
    static func revision(ofEntry key: UnsafeRawBufferPointer) -> UInt64? {
        guard key.count > 9 else { return nil }
        if key[0] == pendingKind { return UInt64(bigEndianKey: key[1..<9]) }
        return UInt64(bigEndianKey: key[(key.count - 8)...])
    }

    /// Removes the entries of the revisions before `target`.
    static func dropRevisions(
        before target: UInt64, from database: LMDBDatabase, in transaction: borrowing LMDBTransaction
    ) throws {
        try transaction.withCursor(in: database) { cursor in
            var more = try cursor.move(to: .first)
            while more {
                let drop = try cursor.withCurrent { key, _ in
                    (revision(ofEntry: key) ?? .max) < target
                }
                if drop { try cursor.deleteCurrent() }
                more = try cursor.move(to: .next)
            }
        }
    }

    // MARK: - HistoryIndexStorage

    func coverage() throws(ChangeLogError) -> UInt64? {
        guard let database = store.history.current else { return nil }
        return try Self.coverage(of: database, in: store)
    }

    /// The coverage stored in `database`.
    static func coverage(of database: LMDBDatabase, in store: LogStore) throws(ChangeLogError) -> UInt64 {
        try store.read(during: "reading the history index") { transaction in
            try transaction.value(forKey: coverageKey, in: database).flatMap(UInt64.init(bigEndianKey:)) ?? 0
        }
    }

    func revisions(touching subject: HistorySubject, in range: ClosedRange<UInt64>) throws(ChangeLogError)
        -> [UInt64]
    {
        guard let database = store.history.current else { return [] }
        let prefix = Self.prefix(of: subject)
        return try store.read(during: "reading the history index") { transaction in
            try transaction.withCursor(in: database) { cursor in
                var revisions: [UInt64] = []
                var more = try cursor.move(to: .atOrAfter(prefix + range.lowerBound.bigEndianKey))
                while more {
                    let revision = try cursor.withCurrent { key, _ -> UInt64? in
                        guard key.count == prefix.count + 8, key.starts(with: prefix) else { return nil }
                        return UInt64(bigEndianKey: Array(key.suffix(8)))
                    }
                    guard let revision, revision <= range.upperBound else { break }
                    revisions.append(revision)
                    more = try cursor.move(to: .next)
                }
                // The entries that wait, in revision order after the moved ones.
                more = try cursor.move(to: .atOrAfter([Self.pendingKind] + range.lowerBound.bigEndianKey))
                while more {
                    let found = try cursor.withCurrent { key, _ -> (revision: UInt64, matches: Bool)? in
                        guard key.first == Self.pendingKind, let revision = Self.revision(ofEntry: key) else {
                            return nil
                        }
                        return (revision, key.count == prefix.count + 9 && key[9...].elementsEqual(prefix))
                    }
                    guard let found, found.revision <= range.upperBound else { break }
                    if found.matches, revisions.last != found.revision { revisions.append(found.revision) }
                    more = try cursor.move(to: .next)
                }
                return revisions
            }
        }
    }

    func items(containing text: String, limit: Int) throws(ChangeLogError) -> [HistoryItem] {
        guard let database = store.history.current, limit > 0 else { return [] }
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
        try store.read(during: "reading the history index") { transaction in
            try transaction.withCursor(in: database) { cursor in
                var more = try cursor.move(to: .atOrAfter([UInt8(ascii: "i")]))
                while more {
                    let entry = try cursor.withCurrent { key, _ in
                        Self.itemID(inKey: key).map { ($0.id, Array(key.prefix($0.prefixLength + 8))) }
                    }
                    guard let (id, firstKey) = entry else { break }
                    let prefix = Array(firstKey.dropLast(8))
                    let first = UInt64(bigEndianKey: Array(firstKey.suffix(8))) ?? 0
                    // The item's last key: just before the first key after every revision of it.
                    more = try cursor.move(to: .atOrAfter(prefix + [UInt8](repeating: 0xFF, count: 9)))
                    _ = more ? try cursor.move(to: .previous) : try cursor.move(to: .last)
                    let last = try UInt64(bigEndianKey: Array(cursor.currentKey().suffix(8))) ?? first
                    add(id, first: first, last: last)
                    more = try cursor.move(to: .next)
                }
                more = try cursor.move(to: .atOrAfter([Self.pendingKind]))
                while more {
                    let entry = try cursor.withCurrent { key, _ -> (String?, UInt64)? in
                        guard key.first == Self.pendingKind, let revision = Self.revision(ofEntry: key) else {
                            return nil
                        }
                        return (Self.itemID(inKey: UnsafeRawBufferPointer(rebasing: key[9...]))?.id, revision)
                    }
                    guard let entry else { break }
                    if let id = entry.0 { add(id, first: entry.1, last: entry.1) }
                    more = try cursor.move(to: .next)
                }
            }
        }
        let sorted = found.values.sorted { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
        return Array(sorted.prefix(limit))
    }

    func catchUp() throws(ChangeLogError) -> Bool {
        guard !readOnly, !store.history.isDisabled else { return false }
        let batch: UInt64 = 512
        while true {
            let (done, database): (Bool, LMDBDatabase)
            do {
                // Each batch opens (at first creates) the named database, which LMDB forbids while
                // another thread of the process opens one: the environment's lock keeps them apart.
                (done, database) = try store.environment.openingDatabases { () throws(any Error) in
                    try store.environment.write { transaction in
                        try indexNextBatch(of: batch, in: transaction)
                    }
                }
            } catch {
                throw ChangeLogError.wrapping(error, path: store.path, during: "building the history index")
            }
            // Known once committed: appends from now on write their entries.
            store.history.set(database)
            if done { return true }
        }
    }

    /// Opens (or creates) the database, then indexes up to `batch` revisions after its
    /// coverage; true when it then covers the latest revision.
    private func indexNextBatch(of batch: UInt64, in transaction: borrowing LMDBTransaction) throws -> (
        Bool, LMDBDatabase
    ) {
        let database = try transaction.openDatabase(named: Self.databaseName, create: true)
        guard let latest = try store.latest(in: transaction)?.revision, let first = try store.first(in: transaction)
        else {
            try transaction.put(UInt64(0).bigEndianKey, forKey: Self.coverageKey, in: database)
            return (true, database)
        }
        let coverage =
            try transaction.value(forKey: Self.coverageKey, in: database).flatMap(UInt64.init(bigEndianKey:)) ?? 0
        let start = Swift.max(coverage + 1, first)
        guard start <= latest else { return (true, database) }
        let end = Swift.min(latest, start + batch - 1)
        var loader = SnapshotLoader()
        var old: LogSnapshot =
            start > first
            ? try store.snapshot(
                of: store.body(at: start - 1, in: transaction), revision: start - 1, loader: &loader, in: transaction
            ).snapshot : .init()
        for revision in start...end {
            let record = try store.record(at: revision, loader: &loader, in: transaction)
            // The oldest revision held after retention follows a dropped one: only its insertions
            // are known.
            let touched = HistoryAnalysis.touched(old: old, new: record.snapshot, changes: record.changes)
            for subject in touched.subjects {
                try transaction.put([], forKey: Self.prefix(of: subject) + revision.bigEndianKey, in: database)
            }
            old = record.snapshot
        }
        try transaction.put(end.bigEndianKey, forKey: Self.coverageKey, in: database)
        return (end == latest, database)
    }
}
