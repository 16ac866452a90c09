import ChangeLog
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failure of the file engine itself: a system call on the log file that failed, or a file
/// that no longer holds what the log committed to it (cut short behind the log's back).
struct FileEngineError: StorageEngineError, CustomStringConvertible {
    /// What failed, as in "writing 4,096 bytes at offset 128".
    var what: String
    /// The system's error, when a call failed.
    var code: Errno?
    /// Whether the file was found damaged (shorter than what was committed) rather than a call
    /// failing.
    var reportsDamage: Bool = false

    var engineName: String { "file" }

    var description: String {
        code.map { "\(what): \($0)" } ?? what
    }

    func changeLogError(path: String, revision: UInt64?, during operation: String) -> ChangeLogError {
        let advice: String
        switch code {
        case .noSpace?, .diskQuotaExceeded?: advice = "free some disk space, then retry"
        case .readOnlyFileSystem?: advice = "the file system is read-only: open the log for reading only"
        case .permissionDenied?, .notPermitted?: advice = "check the file's permissions"
        default:
            advice =
                reportsDamage
                ? "the file was cut short or changed behind the log's back; restore it from a backup"
                : "check the disk and the file, then retry"
        }
        return ChangeLogError(
            code: .storage,
            message: "the log file \(path) failed while \(operation) it (\(description)): \(advice)",
            revision: revision, path: path, cause: self)
    }

    /// The error of the last failed system call, `errno`, doing `what`.
    static func systemCall(_ what: String) -> FileEngineError {
        FileEngineError(what: what, code: Errno(rawValue: errno))
    }
}
