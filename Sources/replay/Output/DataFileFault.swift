import Foundation
import Synchronization

/// A bus error (`SIGBUS`) while the tool reads or writes a log, turned into the tool's refusal of
/// a damaged log: one line on standard error and exit status 2, instead of death by a signal.
///
/// LMDB reads its data file through a memory map. When the file is cut short behind the tool's
/// back while it reads (a `truncate`, a copy over it), the next read of a page past the new end
/// raises `SIGBUS`. The library checks the file's length when each transaction begins, which
/// catches a file cut short between transactions (`replay tail --follow` then stops with its
/// message); a cut that lands during a transaction, after that check, can only be caught when
/// the fault comes. The only files this process maps are the log's two files, so a bus error is
/// taken to be theirs.
///
/// A writer (`replay import`) reads the pages it changes through the same map. A fault ends it
/// in the middle of a write transaction, which is then never committed: the log holds what the
/// commits before it left, less whatever pages the cut took, which no process can give back. A
/// later reading command reads it, or refuses it with one line (the pages in use past the file's
/// end, or a page walk that finds pages zeroed), never with a signal.
///
/// The handler is a signal handler: it writes a line prepared beforehand with `write(2)` and ends
/// with `_exit(2)`, both async-signal-safe, and touches nothing else.
enum DataFileFault {
    /// The address and length of the line the handler writes, prepared before it is installed
    /// and never freed; 0 while none is.
    private static let lineAddress = Atomic<UInt>(0)
    private static let lineLength = Atomic<Int>(0)

    /// Installs the handler, which names the log at `path`, for the rest of the process. A later
    /// call names another log; the line it replaces stays allocated (one per log opened).
    static func exitOnFault(readingLogAt path: String) {
        exitOnFault(
            line: "replay: the data file of the log at \(path) was cut short or damaged while it was read (a bus error "
                + "reading its pages); restore the log from a backup\n")
    }

    /// Installs the handler for a log the tool writes, at `path`: the line says that the
    /// revision being appended was not committed.
    static func exitOnFault(writingLogAt path: String) {
        exitOnFault(
            line: "replay: the data file of the log at \(path) was cut short or damaged while it was written (a bus "
                + "error reading its pages): the revision being appended was not committed; check the log with "
                + "replay verify, or restore it from a backup\n")
    }

    /// Installs the handler, which writes `text`.
    private static func exitOnFault(line text: String) {
        let line = Array(text.utf8)
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: line.count)
        _ = buffer.initialize(from: line)
        lineLength.store(0, ordering: .sequentiallyConsistent)
        lineAddress.store(UInt(bitPattern: buffer.baseAddress), ordering: .sequentiallyConsistent)
        lineLength.store(line.count, ordering: .sequentiallyConsistent)
        signal(SIGBUS) { _ in
            let length = DataFileFault.lineLength.load(ordering: .sequentiallyConsistent)
            if length > 0,
                let address = UnsafeRawPointer(
                    bitPattern: DataFileFault.lineAddress.load(ordering: .sequentiallyConsistent))
            {
                _ = write(STDERR_FILENO, address, length)
            }
            _exit(2)
        }
    }
}
