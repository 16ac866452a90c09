import Foundation

/// The permission bits of a new log's files and directory (``ChangeLog/Options/fileMode``).
extension ChangeLog.Options {
    /// Whether `mode` may be a log's ``fileMode``: it includes the owner's read and write
    /// (`0o600`), without which the log's own writer and readers could not open its files, and
    /// holds nothing but read and write bits (at most `0o666`): no execute, set-ID or sticky
    /// bits, which mean nothing for a log's files.
    public static func isValidFileMode(_ mode: Int) -> Bool {
        mode & ~0o666 == 0 && mode & 0o600 == 0o600
    }

    /// The permission bits of a log directory for files of `fileMode`: the same, with the
    /// search bit added for each of owner, group and others that may read or write (`0o700` for
    /// `0o600`, `0o750` for `0o640`, `0o770` for `0o660`), but never write for others
    /// (`0o775` for `0o666`): a directory anyone may write is one where anyone may replace the
    /// log's files, or put links in their place. Others given write on the files write the log
    /// through them.
    public static func directoryMode(forFileMode fileMode: Int) -> Int {
        let mode = fileMode & 0o666
        return (mode | (mode & 0o444) >> 2 | (mode & 0o222) >> 1) & ~0o002
    }

    /// `mode` in octal with a leading zero, as messages show it: `0640`.
    static func octal(_ mode: Int) -> String {
        let digits = String(mode, radix: 8)
        return mode < 0 ? digits : "0" + digits
    }
}

extension ChangeLog {
    /// Creates the log's directory at `path` with the access of `fileMode` plus search bits
    /// (``Options/directoryMode(forFileMode:)``), applied exactly; the directories on the way are
    /// created as the system's defaults and the `umask` make them. A directory that another
    /// process created meanwhile is used as it is.
    static func createDirectory(at path: String, fileMode: Int) throws(ChangeLogError) {
        let parent = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if PathStatus(of: parent) == .missing {
            do {
                try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            } catch {
                throw Self.creationFailure(error, path: path)
            }
        }
        let mode = mode_t(Options.directoryMode(forFileMode: fileMode))
        guard mkdir(path, mode) == 0 else {
            let code = errno
            guard code == EEXIST else { throw Self.creationFailure(code: code, path: path) }
            return
        }
        _ = chmod(path, mode)
    }
}
