#if LMDB
    // Opening a log's databases: reading what its LMDB environment holds, creating the databases of a
    // new log.
    extension LMDBLogStorage {
        /// Opens the databases of the log in `environment`.
        ///
        /// An existing log is opened in a read transaction: opening writes nothing and takes no
        /// writer lock. Only an environment that holds nothing yet becomes a new log (its databases
        /// created and its layout version recorded, in a write transaction), and only when the log
        /// may be written (`readOnly` false). An environment that holds anything else is not a log,
        /// and is left as it is.
        @available(*, noasync, message: "opening may take LMDB's writer lock; call it from a synchronous context")
        static func open(environment: LMDBEnvironment, path: String, readOnly: Bool) throws(ChangeLogError)
            -> LMDBLogStorage
        {
            try environment.openingDatabases { () throws(ChangeLogError) in
                try openDatabases(environment: environment, path: path, readOnly: readOnly)
            }
        }

        /// ``open(environment:path:readOnly:)``, under the environment's lock for opening databases.
        private static func openDatabases(environment: LMDBEnvironment, path: String, readOnly: Bool)
            throws(ChangeLogError) -> LMDBLogStorage
        {
            let contents: Contents
            do {
                contents = try inspect(environment: environment, path: path, readOnly: readOnly)
            } catch {
                throw ChangeLogError.wrapping(error, path: path, during: "opening")
            }
            if case .log(let store) = contents {
                return store
            }
            guard !readOnly else {
                throw ChangeLogError(
                    code: .logNotFound,
                    message: "no log at \(path): its data.mdb holds no log yet; append to it, or check the path",
                    path: path)
            }
            do {
                return try create(environment: environment, path: path)
            } catch {
                throw ChangeLogError.wrapping(error, path: path, during: "opening")
            }
        }

        /// What an environment holds.
        private enum Contents {
            /// A log, whose databases are open.
            case log(LMDBLogStorage)
            /// Nothing: a new environment.
            case empty
        }

        /// Reads what `environment` holds, in a read transaction that is then committed, so that
        /// the databases it opened stay open.
        /// - Throws: ``ChangeLogError/Code/cannotOpen`` when the environment holds something else,
        ///   ``ChangeLogError/Code/unsupportedFormat`` for a log of another layout version.
        private static func inspect(environment: LMDBEnvironment, path: String, readOnly: Bool) throws -> Contents {
            let transaction = try LMDBTransaction(environment: environment, readOnly: true)
            let contents: Contents
            do {
                contents = try inspect(transaction, environment: environment, path: path, readOnly: readOnly)
            } catch {
                transaction.abort()
                throw error
            }
            // Committed, a read transaction keeps the databases it opened open (aborted, it would
            // close them); with nothing opened, either is the same.
            try transaction.commit()
            return contents
        }

        private static func inspect(
            _ transaction: borrowing LMDBTransaction, environment: LMDBEnvironment, path: String, readOnly: Bool
        ) throws -> Contents {
            let revisions = try openIfPresent("revisions", in: transaction)
            let chunks = try openIfPresent("chunks", in: transaction)
            let meta = try openIfPresent("meta", in: transaction)
            guard let revisions, let chunks, let meta else {
                let main = try transaction.openDatabase(named: nil, create: false)
                let hasEntries = try transaction.withCursor(in: main) { cursor in try cursor.move(to: .first) }
                guard !hasEntries else {
                    throw ChangeLogError(
                        code: .cannotOpen,
                        message: "\(path) holds an LMDB environment that is not a replay log (it lacks the log's "
                            + "revisions, chunks or meta database); it was left as it is: pass the path of a log",
                        path: path)
                }
                return .empty
            }
            try checkFormat(try transaction.value(forKey: formatKey, in: meta), path: path)
            let store = LMDBLogStorage(
                environment: environment, revisions: revisions, chunks: chunks, meta: meta, path: path,
                readOnly: readOnly)
            if let history = try openIfPresent(LMDBHistoryIndex.databaseName, in: transaction) {
                store.history.set(history)
            }
            return .log(store)
        }

        /// The named database `name`, or `nil` when the environment has none of that name (or a
        /// plain key of that name in its main database, `MDB_INCOMPATIBLE`).
        private static func openIfPresent(_ name: String, in transaction: borrowing LMDBTransaction) throws
            -> LMDBDatabase?
        {
            let database: LMDBDatabase
            do {
                database = try transaction.openDatabase(named: name, create: false)
            } catch {
                guard error == .notFound || error == .incompatible else { throw error }
                return nil
            }
            return database
        }

        /// Creates the databases and records the layout version, in a write transaction; another
        /// process may have done so first.
        private static func create(environment: LMDBEnvironment, path: String) throws -> LMDBLogStorage {
            try environment.write { transaction in
                let revisions = try transaction.openDatabase(named: "revisions", create: true)
                let chunks = try transaction.openDatabase(named: "chunks", create: true)
                let meta = try transaction.openDatabase(named: "meta", create: true)
                let history = try transaction.openDatabase(named: LMDBHistoryIndex.databaseName, create: true)
                if let format = try transaction.value(forKey: formatKey, in: meta) {
                    try checkFormat(format, path: path)
                } else {
                    try transaction.put([layoutVersion], forKey: formatKey, in: meta)
                    try transaction.put(UInt64(0).bigEndianKey, forKey: LMDBHistoryIndex.coverageKey, in: history)
                }
                let store = LMDBLogStorage(
                    environment: environment, revisions: revisions, chunks: chunks, meta: meta, path: path,
                    readOnly: false)
                store.history.set(history)
                return store
            }
        }

        /// Checks the stored layout version.
        private static func checkFormat(_ format: [UInt8]?, path: String) throws(ChangeLogError) {
            guard let format else {
                throw ChangeLogError(
                    code: .cannotOpen,
                    message: "\(path) holds a log's databases but no layout version: it is not a replay log, or it was "
                        + "damaged",
                    path: path)
            }
            guard format == [layoutVersion] || format == [compressedLayoutVersion] else {
                let version = format.count == 1 ? "\(format[0])" : "of \(format.count) bytes"
                throw ChangeLogError(
                    code: .unsupportedFormat,
                    message: "the log at \(path) has layout version \(version), this library reads versions "
                        + "\(layoutVersion) and \(compressedLayoutVersion); open it with a newer version of the library",
                    path: path)
            }
        }
    }
#endif
