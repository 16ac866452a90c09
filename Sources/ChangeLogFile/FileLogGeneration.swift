#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One open of a log file: its descriptor and its device and inode. A compaction
/// (``FileLogStorage``) replaces the file at the path by a new one, and the storage by a new
/// generation; a transaction that began before keeps its generation, and so keeps reading the
/// file it began on (the replaced inode stays readable while it is open). The descriptor is
/// closed when the last holder lets the generation go.
final class FileLogGeneration: @unchecked Sendable {
    /// The open file.
    let descriptor: Int32
    /// The file's device.
    let device: UInt64
    /// The file's inode.
    let inode: UInt64
    /// The index of this generation as it was when a newer one replaced it, for the
    /// transactions still reading this one; `nil` while it is current. Set once, and read, only
    /// under the storage's lock.
    var retiredIndex: FileLogIndex?

    init(descriptor: Int32, device: UInt64, inode: UInt64) {
        self.descriptor = descriptor
        self.device = device
        self.inode = inode
    }

    deinit {
        close(descriptor)
    }

    /// Whether the file at `path` is this generation's file.
    func isAt(_ path: String) -> Bool {
        var information = stat()
        guard stat(path, &information) == 0 else { return false }
        return UInt64(information.st_dev) == device && UInt64(information.st_ino) == inode
    }
}
