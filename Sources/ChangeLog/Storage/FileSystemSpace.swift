#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether the file system of a log has run out of space: what a failed write means when the
/// error does not say.
///
/// LMDB reports a short write of its pages (`pwrite` wrote part of them, which a full file
/// system does) as `EIO`, an input/output error, since it has no better code for it. Told apart
/// from a failing disk by looking at the space left: less than ``nearlyFull`` for this user.
enum FileSystemSpace {
    /// The free space under which a file system counts as full: a write of a few pages fails.
    static let nearlyFull = 64 << 10

    /// Whether the file system holding `path` has less than ``nearlyFull`` bytes free for this
    /// user (`statvfs`'s `f_bavail`); `false` when that cannot be read.
    static func isFull(at path: String) -> Bool {
        var information = statvfs()
        guard statvfs(path, &information) == 0 else { return false }
        let (free, overflow) = Int(clamping: information.f_bavail).multipliedReportingOverflow(
            by: Int(clamping: information.f_frsize))
        return !overflow && free < nearlyFull
    }
}
