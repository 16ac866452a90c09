import Foundation

// How a log is opened: its durability and the options of `init(path:options:)`.
extension ChangeLog {
    /// How safe a committed append is from crashes, traded against speed.
    ///
    /// A mode is a name, the same for every engine; each engine carries it out its own way: the
    /// LMDB engine as its environment's flags (named below), the file engine as when it calls
    /// `fsync` (``noMetaSync`` syncs the data alone, ``noSync`` nothing).
    public struct Durability: Hashable, Sendable, CustomStringConvertible {
        /// The stable name of the mode.
        public let name: String

        /// LMDB's default: each commit flushes data and meta pages to disk (`fsync`) before the
        /// append returns. A committed revision survives a process crash and a system crash or
        /// power loss.
        public static let durable = Durability(name: "durable")
        /// `MDB_NOMETASYNC`: data pages are flushed at each commit, the meta page is not. A process
        /// crash loses nothing; a system crash or power loss can undo the last committed
        /// transactions (the log rolls back to an earlier revision, consistent and verifiable).
        /// ``ChangeLog/flush()`` makes everything durable.
        public static let noMetaSync = Durability(name: "noMetaSync")
        /// `MDB_NOSYNC`: nothing is flushed at commit; the system writes pages back when it
        /// likes. A process crash loses nothing; a system crash or power loss can lose every
        /// transaction since the last flush, and on a file system that does not preserve write
        /// order it can corrupt the log. Call ``ChangeLog/flush()`` at points that must survive.
        public static let noSync = Durability(name: "noSync")

        /// The stable name of the mode.
        public var description: String { name }
    }

    /// How to open a log.
    public struct Options: Hashable, Sendable {
        /// Whether to create the directory and the log when they do not exist; when `false`,
        /// opening a missing path throws ``ChangeLogError/Code/logNotFound``.
        public var createIfMissing: Bool
        /// How safe a committed append is from crashes.
        public var durability: Durability
        /// The initial size of the memory map in bytes. The map doubles by itself whenever a
        /// write needs more, so this only saves the first few doublings.
        public var initialMapSize: Int
        /// The maximum number of simultaneous read transactions, across all processes, fixed by
        /// the first process that opens the log: from 1 to ``maxReadersLimit``. Each takes 64
        /// bytes of `lock.mdb`.
        public var maxReaders: Int
        /// The largest ``maxReaders`` a log accepts: 65,536 read transactions at once, a lock
        /// file of 4 MB.
        public static let maxReadersLimit = 65_536
        /// How often, while subscriptions wait, the log checks for revisions appended elsewhere
        /// (by other processes or other instances): a short read transaction of the latest
        /// revision. On Linux, file events (inotify) usually notice them first and this is the
        /// safety net; elsewhere it bounds the latency. At least one millisecond.
        public var subscriptionPollInterval: Duration
        /// Whether to open the log for reading only (LMDB's `MDB_RDONLY`): nothing is written to
        /// `data.mdb`, not even at open, and no writer lock is taken, so a reader never waits
        /// for another process's write transaction. Appending and dropping revisions throw
        /// ``ChangeLogError/Code/readOnly``; reading and subscriptions work, and see what other
        /// processes append. The log must exist (``createIfMissing`` is ignored). LMDB records
        /// its readers in `lock.mdb`; when this process cannot write that file (another user's
        /// log, immutable files, a read-only file system), or the file is missing or not a plain
        /// file of the log's own (a symbolic link, a file with holes: LMDB would write through
        /// it, or create, grow or allocate it), the log is read without it, and
        /// ``ChangeLog/readingWithoutLock`` says so and why: writers running at the same time
        /// do not see such a reader. A read-only open creates no file, and a `data.mdb` that is a
        /// symbolic link is refused.
        public var readOnly: Bool
        /// The permission bits of the files of a log this open creates, as an octal number: by
        /// default `0o600`, private to the user who creates the log. Group or world access is
        /// given only when asked for: `0o640` lets the file's group read the log, `0o660` lets
        /// it write too. `data.mdb` gets these bits; `lock.mdb`, in which LMDB's readers record
        /// themselves, gets write access too wherever they allow reading (`0o660` for `0o640`).
        /// The directory a log is created in, when this open creates it, gets the search bit
        /// added wherever reading or writing is allowed (`0o700` by default, `0o750` for
        /// `0o640`).
        ///
        /// The bits are applied exactly, whatever the process's `umask` (as `mkdir -m` applies
        /// its mode). They must include the owner's read and write (`0o600`) and hold nothing
        /// but read and write bits (at most `0o666`); other values throw
        /// ``ChangeLogError/Code/invalidArgument``. An existing log, directory or file keeps its
        /// bits; a `lock.mdb` created beside an existing data file gets the data file's.
        public var fileMode: Int
        /// Whether the log may come from a device or a sender nobody here controls (a log shipped
        /// with a crash report, a copy off another machine), so that its files are checked before
        /// LMDB reads them. LMDB keeps no checksums of its pages and follows whatever page numbers
        /// and offsets they hold: a damaged branch or leaf page would crash the process
        /// (`SIGSEGV`, `SIGBUS`, an assertion) instead of failing. With this option, opening walks
        /// every B-tree page the log's newest snapshot can reach, reading each with `pread` and
        /// checking its number, kind, bounds, node offsets, key and value sizes, overflow pages,
        /// depth, and that no page is reached twice; a log that fails is refused with
        /// ``ChangeLogError/Code/cannotOpen`` and a message naming the damage. The records of the
        /// first and the latest revision are then read, so that a log whose sound trees are not
        /// the ones their names say (the revisions and chunks databases exchanged) is refused
        /// at once, naming the record, instead of being read as revisions. The meta pages and
        /// the file's length are checked at every open and transaction, with or without it.
        ///
        /// The walk reads the pages in use once: about as long as reading the whole log (the
        /// `replay` tool's reading commands use it). Revisions appended later by other processes
        /// are LMDB's own writing and are not walked again. Records carry their own checksums,
        /// checked when they are read, whatever this option.
        public var untrusted: Bool
        /// Whether appends keep the history index, the revisions that touched each item and
        /// section, which ``ChangeLog/history(of:in:where:)`` reads (true by default). When false,
        /// appends through this open leave it behind and histories are answered by reading every
        /// revision of their range; an open that keeps it later brings it up to date on first use.
        public var keepsHistoryIndex = true

        /// The default ``fileMode``: read and write for the owner only.
        public static let privateFileMode = 0o600

        /// Creates options; by default the log is created when missing, private to its owner
        /// (``fileMode`` `0o600`), opened for reading and writing, durable, starts with a 16 MiB
        /// map, allows 126 readers and polls for other writers every 100 ms while subscriptions
        /// wait; its pages are not walked before it is read (``untrusted``).
        public init(
            createIfMissing: Bool = true, durability: Durability = .durable, initialMapSize: Int = 16 << 20,
            maxReaders: Int = 126, subscriptionPollInterval: Duration = .milliseconds(100), readOnly: Bool = false,
            fileMode: Int = Options.privateFileMode, untrusted: Bool = false
        ) {
            self.untrusted = untrusted
            self.fileMode = fileMode
            self.readOnly = readOnly
            self.createIfMissing = createIfMissing
            self.durability = durability
            self.initialMapSize = initialMapSize
            self.maxReaders = maxReaders
            self.subscriptionPollInterval = subscriptionPollInterval
        }
    }
}
