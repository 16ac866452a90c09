import Foundation
import Synchronization

/// A bus error (`SIGBUS`) while the tool reads a log, turned into the tool's refusal of a damaged
/// log: one line on standard error and exit status 2, instead of death by a signal.
///
/// LMDB reads its data file through a memory map. When the file is cut short behind the tool's
/// back while it reads (a `truncate`, a copy over it), the next read of a page past the new end
/// raises `SIGBUS`. The library checks the file's length when each transaction begins, which
/// catches a file cut short between transactions (`replay tail --follow` then stops with its
/// message); a cut that lands during a transaction, after that check, can only be caught when
/// the fault comes. The only files this process maps are the log's two files, so a bus error is
/// taken to be theirs.
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
        let line = Array(
            ("replay: the data file of the log at \(path) was cut short or damaged while it was read (a bus error "
                + "reading its pages); restore the log from a backup\n").utf8)
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
