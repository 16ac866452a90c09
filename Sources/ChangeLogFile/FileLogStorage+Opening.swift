import ChangeLog
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// Opening a log file: the path checked, the file created or opened, the writer's lock taken,
// the header checked and the transactions scanned into the index, a torn tail cut (writer) or
// ignored (reader), damage refused.
extension FileLogStorage {
    /// Opens the log file at `path` with `options`. ``ChangeLog/init(fileAt:options:)``
    /// documents what it throws.
    static func open(path: String, options: ChangeLog.Options) throws(ChangeLogError) -> FileLogStorage {
        var attempt = 0
        while true {
            attempt += 1
            let descriptor = try openFile(path: path, options: options)
            // A writer's compaction may have renamed a new file over the path between the open
            // and the lock: the lock taken is then the replaced file's, so open again.
            if !options.readOnly, attempt < 8, flock(descriptor, LOCK_EX | LOCK_NB) == 0,
                !isOpen(descriptor, at: path)
            {
                close(descriptor)
                continue
            }
            do {
                let storage = try open(descriptor: descriptor, path: path, options: options)
                // A compaction cut short left its new file: the log is the old one, whole.
                if !options.readOnly { _ = unlink(compactionPath(of: path)) }
                return storage
            } catch {
                close(descriptor)
                throw error
            }
        }
    }

    /// Whether `descriptor` is open on the file now at `path`.
    private static func isOpen(_ descriptor: Int32, at path: String) -> Bool {
        var open = stat()
        var atPath = stat()
        guard fstat(descriptor, &open) == 0, stat(path, &atPath) == 0 else { return false }
        return open.st_dev == atPath.st_dev && open.st_ino == atPath.st_ino
    }

    /// Opens (or creates) the file, refusing what is no regular file.
    private static func openFile(path: String, options: ChangeLog.Options) throws(ChangeLogError) -> Int32 {
        var information = stat()
        let flags = (options.readOnly ? O_RDONLY : O_RDWR) | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK
        if lstat(path, &information) != 0 {
            let code = errno
            guard code == ENOENT else { throw failure(code, path: path, doing: "reach") }
            guard options.createIfMissing, !options.readOnly else {
                throw ChangeLogError(
                    code: .logNotFound,
                    message: "no log file at \(path): check the path"
                        + (options.readOnly ? "" : ", or pass Options(createIfMissing: true) to create one"),
                    path: path)
            }
            let descriptor = systemOpen(path, flags | O_CREAT | O_EXCL, mode_t(options.fileMode))
            guard descriptor >= 0 else { throw failure(errno, path: path, doing: "create") }
            // The mode exactly, whatever the umask.
            _ = fchmod(descriptor, mode_t(options.fileMode))
            return descriptor
        }
        let kind = information.st_mode & S_IFMT
        guard kind == S_IFREG else {
            let what: String
            switch kind {
            case S_IFDIR: what = "a directory (an LMDB log is one: open it with ChangeLog(path:))"
            case S_IFLNK: what = "a symbolic link, which a log file is never opened through"
            case S_IFIFO: what = "a FIFO"
            case S_IFSOCK: what = "a socket"
            default: what = "a device"
            }
            throw ChangeLogError(
                code: .cannotOpen, message: "\(path) is \(what), not a log file: pass the path of a log file",
                path: path)
        }
        let descriptor = systemOpen(path, flags, 0)
        guard descriptor >= 0 else { throw failure(errno, path: path, doing: "open") }
        return descriptor
    }

    /// The storage of the file open as `descriptor`: locked, checked and scanned.
    private static func open(descriptor: Int32, path: String, options: ChangeLog.Options) throws(ChangeLogError)
        -> FileLogStorage
    {
        if !options.readOnly, flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            guard code == EWOULDBLOCK || code == EAGAIN else { throw failure(code, path: path, doing: "lock") }
            throw ChangeLogError(
                code: .cannotOpen,
                message: "the log file \(path) is being written by another process (or another ChangeLog of this "
                    + "process): one writer at a time; release that one, or open this one for reading only "
                    + "(Options.readOnly)",
                path: path)
        }
        // The size is read under the lock: a writer that held it may have appended until it let go.
        var information = stat()
        guard fstat(descriptor, &information) == 0 else { throw failure(errno, path: path, doing: "open") }
        guard information.st_mode & S_IFMT == S_IFREG else {
            throw ChangeLogError(
                code: .cannotOpen, message: "\(path) is not a regular file: pass the path of a log file", path: path)
        }
        let window = FileWindow(descriptor: descriptor)
        var size = UInt64(information.st_size)
        do {
            let header =
                try window.withBytes(at: 0, count: Int(min(size, UInt64(FileLogLayout.headerSize)))) { Array($0) }
                ?? []
            switch FileLogLayout.check(header: header) {
            case .valid(let version):
                if version < FileLogLayout.version, !options.readOnly {
                    // The writer appends ordered commit frames, which readers of the older layout
                    // do not know: the header says so first (16 bytes, one sector).
                    try writeAll(FileLogLayout.header(), at: 0, to: descriptor)
                    guard fsync(descriptor) == 0 else { throw FileEngineError.systemCall("syncing the file") }
                    window.invalidate()
                }
            case .incomplete:
                guard !options.readOnly else {
                    throw ChangeLogError(
                        code: .logNotFound,
                        message: "no log at \(path): the file holds no log yet (\(size) bytes); append to it, or "
                            + "check the path",
                        path: path)
                }
                guard ftruncate(descriptor, 0) == 0 else { throw FileEngineError.systemCall("emptying the file") }
                try writeAll(FileLogLayout.header(), at: 0, to: descriptor)
                guard fsync(descriptor) == 0 else { throw FileEngineError.systemCall("syncing the file") }
                size = UInt64(FileLogLayout.headerSize)
                window.invalidate()
            case .otherVersion(let version):
                throw ChangeLogError(
                    code: .unsupportedFormat,
                    message: "the log file \(path) has layout version \(version), this library reads versions "
                        + "\(FileLogLayout.readableVersions.lowerBound) to \(FileLogLayout.readableVersions.upperBound); open it with a newer version of the library",
                    path: path)
            case .notALog:
                throw ChangeLogError(
                    code: .cannotOpen,
                    message: "\(path) is not a log file (its first bytes are not a log file's header, or the header "
                        + "is damaged): pass the path of a log file",
                    path: path)
            }
            var index = FileLogIndex()
            var tornTail: FileLogTornTail?
            switch try FileLogScanner(window: window).scan(into: &index, fileSize: size) {
            case .complete:
                break
            case .tail(let start, let length):
                if !options.readOnly {
                    guard ftruncate(descriptor, off_t(start)) == 0, fsync(descriptor) == 0 else {
                        throw FileEngineError.systemCall("cutting the torn tail at offset \(start)")
                    }
                    window.invalidate()
                }
                tornTail = FileLogTornTail(offset: start, length: length, wasCut: !options.readOnly)
            case .damage(_, let reason):
                throw ChangeLogError(
                    code: .cannotOpen,
                    message: "cannot open the log file \(path): it is damaged (\(reason)); restore it from a backup",
                    path: path)
            }
            return FileLogStorage(
                path: path, descriptor: descriptor, readOnly: options.readOnly, durability: options.durability,
                index: index,
                identity: (UInt64(information.st_dev), UInt64(information.st_ino)), tornTail: tornTail)
        } catch let error as ChangeLogError {
            throw error
        } catch let error as FileEngineError {
            throw error.changeLogError(path: path, revision: nil, during: "opening")
        } catch {
            throw ChangeLogError(code: .cannotOpen, message: "cannot open the log file \(path): \(error)", path: path)
        }
    }

    /// `open(2)`.
    static func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
        #if canImport(Glibc)
            Glibc.open(path, flags, mode)
        #elseif canImport(Musl)
            Musl.open(path, flags, mode)
        #else
            Darwin.open(path, flags, mode)
        #endif
    }

    /// The error for a system call on `path` that failed with `code`.
    private static func failure(_ code: Int32, path: String, doing action: String) -> ChangeLogError {
        let errno = Errno(rawValue: code)
        let advice: String
        switch errno {
        case .permissionDenied, .notPermitted: advice = "check the permissions of the file and its directories"
        case .readOnlyFileSystem: advice = "the file system is read-only: open the log for reading only"
        case .noSuchFileOrDirectory: advice = "create the directory that holds it"
        case .noSpace, .diskQuotaExceeded: advice = "free some disk space"
        case .tooManySymbolicLinkLevels: advice = "a log file is never opened through a symbolic link"
        default: advice = "check the path"
        }
        return ChangeLogError(
            code: .cannotOpen, message: "cannot \(action) the log file \(path) (\(errno)): \(advice)", path: path,
            cause: FileEngineError(what: "\(action) \(path)", code: errno))
    }
}
