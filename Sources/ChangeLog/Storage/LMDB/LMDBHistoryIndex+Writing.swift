#if LMDB
    /// Writing the history index on LMDB, inside the log's transactions: an append's events, moving
    /// waiting events to their subjects' blocks, retention, and building the index of a log that has
    /// none.
    extension LMDBHistoryIndex {
        /// A subject and what a revision did to it.
        struct PendingEvent {
            var subject: HistorySubject
            var event: HistoryEvent
        }

        // MARK: - Waiting events

        /// The value of a revision's waiting events: their count, then for each its subject (kind
        /// byte, text) and its event, a block of one with the revision as its base.
        static func pendingValue(_ events: [HistorySubject: HistoryEvent], revision: UInt64) -> [UInt8] {
            var writer = RecordWriter(capacity: 16 * events.count + 8)
            writer.writeCount(events.count)
            let sorted = events.sorted { prefix(of: $0.key).lexicographicallyPrecedes(prefix(of: $1.key)) }
            for (subject, event) in sorted {
                switch subject {
                case .item(let id):
                    writer.writeByte(UInt8(ascii: "i"))
                    writer.writeString(id)
                case .section(let title):
                    writer.writeByte(UInt8(ascii: "s"))
                    writer.writeString(title)
                }
                var stored = event
                stored.revision = revision
                for byte in HistoryEventCoding.encode([stored], base: revision) { writer.writeByte(byte) }
            }
            return writer.takeBytes()
        }

        /// The waiting events of `revision`, from their value.
        static func pendingEvents(_ value: UnsafeRawBufferPointer, revision: UInt64, in store: LogStore)
            throws(ChangeLogError) -> [PendingEvent]
        {
            do {
                return try pendingEvents(value, revision: revision)
            } catch {
                throw damaged(error, at: revision, in: store)
            }
        }

        /// The waiting events of `revision`, from their value.
        static func pendingEvents(_ value: UnsafeRawBufferPointer, revision: UInt64) throws(RecordDecodingError)
            -> [PendingEvent]
        {
            var reader = RecordReader(value)
            let count = try reader.readCount(minimumElementSize: 5)
            var events: [PendingEvent] = []
            events.reserveCapacity(count)
            for _ in 0..<count {
                let kind = try reader.readByte()
                let text = try reader.readString()
                let subject: HistorySubject
                switch kind {
                case UInt8(ascii: "i"): subject = .item(text)
                case UInt8(ascii: "s"): subject = .section(text)
                default: throw reader.failure("unknown subject kind \(kind)")
                }
                events.append(
                    PendingEvent(
                        subject: subject, event: try HistoryEventCoding.decodeOne(from: &reader, base: revision)))
            }
            try reader.expectEnd()
            return events
        }

        /// Adds the events of `revision`, which touched `touched`, and advances the coverage to it
        /// when it covered the revision before.
        static func add(
            _ touched: HistoryAnalysis.Touched, revision: UInt64, to database: LMDBDatabase,
            in transaction: borrowing LMDBTransaction
        ) throws {
            if !touched.events.isEmpty {
                try transaction.put(
                    pendingValue(touched.events, revision: revision), forKey: [pendingKind] + revision.bigEndianKey,
                    in: database)
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

        /// Moves the waiting events of the revisions up to `revision` to their subjects' blocks.
        static func mergePending(
            through revision: UInt64, in database: LMDBDatabase, transaction: borrowing LMDBTransaction
        ) throws {
            var bySubject: [HistorySubject: [HistoryEvent]] = [:]
            try transaction.withCursor(in: database) { cursor in
                var more = try cursor.move(to: .atOrAfter([pendingKind]))
                while more {
                    let waiting = try cursor.withCurrent { key, value -> [PendingEvent]? in
                        guard key.count == 9, key[0] == pendingKind,
                            let entryRevision = UInt64(bigEndianKey: key[1...]),
                            entryRevision <= revision
                        else { return nil }
                        // Events that do not decode are dropped: a damaged index must not stop appends.
                        return (try? pendingEvents(value, revision: entryRevision)) ?? []
                    }
                    guard let waiting else { break }
                    for entry in waiting { bySubject[entry.subject, default: []].append(entry.event) }
                    try cursor.deleteCurrent()
                    more = try cursor.move(to: .atOrAfter([pendingKind]))
                }
            }
            let subjects = bySubject.map { (prefix: prefix(of: $0.key), events: $0.value) }
            for (prefix, events) in subjects.sorted(by: { $0.prefix.lexicographicallyPrecedes($1.prefix) }) {
                try append(events, toBlocksOf: prefix, in: database, transaction: transaction)
            }
            try transaction.put(revision.bigEndianKey, forKey: mergedKey, in: database)
        }

        /// Appends `events` (after every event stored of the subject) to the subject's latest block,
        /// or to a new one when that one is full.
        static func append(
            _ events: [HistoryEvent], toBlocksOf prefix: [UInt8], in database: LMDBDatabase,
            transaction: borrowing LMDBTransaction
        ) throws {
            guard let first = events.first else { return }
            let latest = try transaction.withCursor(in: database) { cursor -> (base: UInt64, events: [HistoryEvent])? in
                let after = try cursor.move(to: .atOrAfter(prefix + [UInt8](repeating: 0xFF, count: 9)))
                guard after ? try cursor.move(to: .previous) : try cursor.move(to: .last) else { return nil }
                return try cursor.withCurrent { key, value in
                    guard let base = blockRevision(key, of: prefix), value.count < blockBytes else { return nil }
                    do {
                        return (base, try HistoryEventCoding.decode(value, base: base))
                    } catch {
                        // A block that does not decode is not extended: the new events start one.
                        return nil
                    }
                }
            }
            let base = latest?.base ?? first.revision
            let block = HistoryEventCoding.encode((latest?.events ?? []) + events, base: base)
            try transaction.put(block, forKey: prefix + base.bigEndianKey, in: database)
        }

        // MARK: - Retention

        /// Removes the events of the revisions before `target`.
        static func dropRevisions(
            before target: UInt64, from database: LMDBDatabase, in transaction: borrowing LMDBTransaction
        ) throws {
            var rewritten: [(key: [UInt8], block: [UInt8])] = []
            try transaction.withCursor(in: database) { cursor in
                var more = try cursor.move(to: .first)
                while more {
                    let drop = try cursor.withCurrent { key, value -> Bool in
                        guard key.count > 8, let base = UInt64(bigEndianKey: key[(key.count - 8)...]) else {
                            return false
                        }
                        if key[0] == pendingKind { return key.count == 9 && base < target }
                        guard base < target else { return false }
                        // A block that does not decode goes: its events cannot be told apart.
                        let kept = ((try? HistoryEventCoding.decode(value, base: base)) ?? []).filter {
                            $0.revision >= target
                        }
                        if let first = kept.first {
                            rewritten.append(
                                (
                                    Array(key.prefix(key.count - 8)) + first.revision.bigEndianKey,
                                    HistoryEventCoding.encode(kept, base: first.revision)
                                ))
                        }
                        return true
                    }
                    if drop { try cursor.deleteCurrent() }
                    more = try cursor.move(to: .next)
                }
            }
            for (key, block) in rewritten {
                try transaction.put(block, forKey: key, in: database)
            }
        }

        // MARK: - Building

        func catchUp() throws(ChangeLogError) -> Bool {
            guard !readOnly, !storage.history.isDisabled else { return false }
            let batch: UInt64 = 512
            while true {
                let (done, database): (Bool, LMDBDatabase)
                do {
                    // Each batch opens (at first creates) the named database, which LMDB forbids while
                    // another thread of the process opens one: the environment's lock keeps them apart.
                    (done, database) = try storage.environment.openingDatabases { () throws(any Error) in
                        try storage.environment.write { transaction in
                            try indexNextBatch(of: batch, in: transaction)
                        }
                    }
                } catch {
                    throw ChangeLogError.wrapping(error, path: store.path, during: "building the history index")
                }
                // Known once committed: appends from now on write their entries.
                storage.history.set(database)
                if done { return true }
            }
        }

        /// Opens (or creates) the database, then indexes up to `batch` revisions after its
        /// coverage; true when it then covers the latest revision.
        private func indexNextBatch(of batch: UInt64, in transaction: borrowing LMDBTransaction) throws -> (
            Bool, LMDBDatabase
        ) {
            let database = try transaction.openDatabase(named: Self.databaseName, create: true)
            let ends = try storage.withLogTransaction(transaction) { log in
                (try store.latest(in: log)?.revision, try store.first(in: log))
            }
            guard let latest = ends.0, let first = ends.1 else {
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
                ? try storage.withLogTransaction(transaction) { log in
                    try store.snapshot(
                        of: store.body(at: start - 1, in: log), revision: start - 1, loader: &loader, in: log)
                }.snapshot : .init()
            for revision in start...end {
                let record = try storage.withLogTransaction(transaction) { log in
                    try store.record(at: revision, loader: &loader, in: log)
                }
                // The oldest revision held after retention follows a dropped one: only its insertions
                // are known.
                let touched = HistoryAnalysis.touched(old: old, new: record.snapshot, changes: record.changes)
                try Self.add(touched, revision: revision, to: database, in: transaction)
                old = record.snapshot
            }
            try transaction.put(end.bigEndianKey, forKey: Self.coverageKey, in: database)
            return (end == latest, database)
        }
    }
#endif
