#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `stat(2)` says about a path: enough to tell a log that is missing from one this process
/// may not reach (`FileManager.fileExists` answers `false` to both).
enum PathStatus: Equatable {
    /// A directory.
    case directory
    /// A file of zero bytes (a `data.mdb` that holds no log yet).
    case emptyFile
    /// Anything else that is not a directory.
    case notDirectory
    /// Nothing at the path (`ENOENT`).
    case missing
    /// The path cannot be examined, with the `errno` that says why: `EACCES` for a directory on
    /// the way that this process may not search, `ENOTDIR` for a file on the way, and so on.
    case unreachable(Int32)

    init(of path: String) {
        var information = stat()
        guard stat(path, &information) == 0 else {
            let code = errno
            self = code == ENOENT ? .missing : .unreachable(code)
            return
        }
        switch information.st_mode & S_IFMT {
        case S_IFDIR: self = .directory
        case S_IFREG where information.st_size == 0: self = .emptyFile
        default: self = .notDirectory
        }
    }

    /// Where the symbolic link at `path` points, when it is one and its target does not exist;
    /// `nil` otherwise.
    static func danglingLinkTarget(of path: String) -> String? {
        var information = stat()
        guard lstat(path, &information) == 0, information.st_mode & S_IFMT == S_IFLNK,
            stat(path, &information) != 0, errno == ENOENT
        else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink(path, &buffer, buffer.count - 1)
        guard length >= 0 else { return "a missing target" }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The system's text for an `errno`.
    static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
