import Foundation
import SystemPackage

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
    /// The path cannot be examined, with the error that says why: `EACCES` for a directory on
    /// the way that this process may not search, `ENOTDIR` for a file on the way, and so on.
    case unreachable(Errno)

    init(of path: String) {
        let information: Stat
        do {
            information = try Stat(FilePath(path))
        } catch {
            self = error == .noSuchFileOrDirectory ? .missing : .unreachable(error)
            return
        }
        switch information.type {
        case .directory: self = .directory
        case .regular where information.size == 0: self = .emptyFile
        default: self = .notDirectory
        }
    }

    /// Where the symbolic link at `path` points, when it is one and its target does not exist;
    /// `nil` otherwise.
    static func danglingLinkTarget(of path: String) -> String? {
        guard (try? Stat(FilePath(path), followTargetSymlink: false))?.type == .symbolicLink,
            PathStatus(of: path) == .missing
        else { return nil }
        return (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "a missing target"
    }
}
