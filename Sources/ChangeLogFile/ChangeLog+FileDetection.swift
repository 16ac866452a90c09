import ChangeLog
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ChangeLog {
    /// Whether the regular file at `path` starts with the file engine's magic bytes
    /// (`FileLogLayout`): a log file, or a damaged one, that `init(fileAt:options:)` opens or
    /// refuses with the damage named. `false` for a directory, a special file, a missing or
    /// unreadable path. Reads at most 8 bytes and never blocks on a FIFO.
    ///
    /// For tools that take one path for a log of either engine: a log directory is LMDB's.
    public static func isLogFile(atPath path: String) -> Bool {
        var status = stat()
        // Nothing but a regular file is opened: opening a device may act on it.
        guard !path.isEmpty, stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
            let descriptor = try? FileDescriptor.open(FilePath(path), .readOnly, options: [.nonBlocking])
        else { return false }
        defer { try? descriptor.close() }
        guard fstat(descriptor.rawValue, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return false }
        var bytes = [UInt8](repeating: 0, count: FileLogLayout.magic.count)
        let count = (try? bytes.withUnsafeMutableBytes { try descriptor.read(fromAbsoluteOffset: 0, into: $0) }) ?? 0
        return count == bytes.count && bytes == FileLogLayout.magic
    }
}
