import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `tmpfs` of a few pages mounted on a new temporary directory, for tests of a full file
/// system: filled up, it refuses every new block as a full disk does.
///
/// Mounting takes root (`CAP_SYS_ADMIN`) and Linux; CI runs the tests as root. Tests that need
/// one are enabled by ``canMount``, so that elsewhere they show as skipped rather than passing
/// without having checked anything. Shared by `ChangeLogTests` and `ReplayTests`.
package struct SmallFileSystem: Sendable {
    /// The directory the file system is mounted on.
    package let path: String
    /// The image file of an `ext4` file system (``ext4(megabytes:)``), removed with it.
    private var image: String?

    /// Whether this process can mount one: tried once, with a file system that is unmounted
    /// again at once.
    package static let canMount: Bool = {
        guard let probe = try? SmallFileSystem(bytes: 64 << 10) else { return false }
        probe.unmount()
        return true
    }()

    /// Mounts a `tmpfs` of `bytes` bytes (rounded up to whole pages) on a new directory.
    /// - Throws: ``Failure`` naming the call that failed and its `errno`.
    package init(bytes: Int) throws(Failure) {
        var template = Array("/tmp/small-fs-XXXXXX".utf8CString)
        guard let created = mkdtemp(&template) else { throw Failure(call: "mkdtemp", code: errno) }
        let directory = String(cString: created)
        #if os(Linux)
            guard mount("tmpfs", directory, "tmpfs", 0, "size=\(bytes),mode=0755") == 0 else {
                let code = errno
                rmdir(directory)
                throw Failure(call: "mount", code: code)
            }
        #else
            rmdir(directory)
            throw Failure(call: "mount", code: ENOSYS)
        #endif
        path = directory
    }

    /// Writes zeros to a file named `name` until the file system has no block left, then gives
    /// `leaving` bytes back (a multiple of the page size leaves that much free); returns the
    /// size of the file.
    @discardableResult
    package func fill(name: String = "fill", leaving: Int = 0) throws(Failure) -> Int {
        let descriptor = open(path + "/" + name, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure(call: "open", code: errno) }
        defer { close(descriptor) }
        let zeros = [UInt8](repeating: 0, count: 4096)
        var total = 0
        while true {
            let written = zeros.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            if written < 0, errno == ENOSPC { break }
            guard written > 0 else { throw Failure(call: "write", code: errno) }
            total += written
        }
        let size = max(total - leaving, 0)
        guard ftruncate(descriptor, off_t(size)) == 0 else { throw Failure(call: "ftruncate", code: errno) }
        return size
    }

    /// Mounts the file system read-only once no file on it is open for writing: the kernel
    /// refuses the remount (`EBUSY`) while one is, and a log released at the end of a scope is
    /// closed when the last of its background work lets it go. Tries again every 50 ms while
    /// the refusal is `EBUSY`, for at most a minute (a guard against a writer that never closes).
    package func remountReadOnly() async throws {
        var attempts = 0
        while true {
            do {
                try remount(readOnly: true)
                return
            } catch {
                attempts += 1
                guard error.code == EBUSY, attempts < 1_200 else { throw error }
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Mounts the file system read-only, or read-write again.
    package func remount(readOnly: Bool) throws(Failure) {
        #if os(Linux)
            let flags = UInt(MS_REMOUNT) | (readOnly ? UInt(MS_RDONLY) : 0)
            guard mount("tmpfs", path, "tmpfs", flags, nil) == 0 else { throw Failure(call: "mount", code: errno) }
        #endif
    }

    /// Unmounts the file system (lazily when a file on it is still open) and removes its
    /// directory, and its image. Safe to call from a `defer`: it never throws.
    package func unmount() {
        #if os(Linux)
            if umount2(path, 0) != 0 { _ = umount2(path, Int32(MNT_DETACH)) }
        #endif
        rmdir(path)
        if let image { unlink(image) }
    }

    /// Whether this process can mount an `ext4` image (``ext4(megabytes:)``): root, `mkfs.ext4`
    /// and loop devices. Tried once.
    package static let canMountExt4: Bool = {
        guard let probe = try? ext4(megabytes: 8) else { return false }
        probe.unmount()
        return true
    }()

    /// An `ext4` file system of `megabytes` in an image file, mounted through a loop device.
    /// Unlike `tmpfs`, `ext4` keeps the blocks a `fallocate` got before it ran out of space.
    ///
    /// - Throws: ``Failure`` naming the command that failed.
    package static func ext4(megabytes: Int) throws(Failure) -> SmallFileSystem {
        var template = Array("/tmp/small-fs-XXXXXX".utf8CString)
        guard let created = mkdtemp(&template) else { throw Failure(call: "mkdtemp", code: errno) }
        let directory = String(cString: created)
        let image = directory + ".img"
        do throws(Failure) {
            try run("/usr/bin/truncate", ["-s", "\(megabytes)M", image])
            try run("/usr/sbin/mkfs.ext4", ["-q", "-F", image])
            try run("/usr/bin/mount", ["-o", "loop", image, directory])
        } catch {
            unlink(image)
            rmdir(directory)
            throw error
        }
        var fileSystem = SmallFileSystem(mountedOn: directory)
        fileSystem.image = image
        return fileSystem
    }

    private init(mountedOn directory: String) {
        path = directory
    }

    /// Runs the program at `executable` with `arguments`, its output discarded.
    private static func run(_ executable: String, _ arguments: [String]) throws(Failure) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw Failure(call: executable, code: ENOENT)
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failure(call: executable, code: EIO) }
    }

    /// A failed system call while setting up the file system.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        /// The call that failed.
        package var call: String
        /// Its `errno`.
        package var code: Int32

        package var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
    }
}

/// Runs `body` with a new small file system of `bytes` bytes, filled up unless `filled` is
/// false, and unmounts it whatever `body` does.
package func withSmallFileSystem<R>(
    bytes: Int = 64 << 10, filled: Bool = true, _ body: (SmallFileSystem) throws -> R
) throws -> R {
    let fileSystem = try SmallFileSystem(bytes: bytes)
    defer { fileSystem.unmount() }
    if filled { try fileSystem.fill() }
    return try body(fileSystem)
}

/// The same, for asynchronous bodies.
package func withSmallFileSystem<R>(
    bytes: Int = 64 << 10, filled: Bool = true, _ body: (SmallFileSystem) async throws -> R
) async throws -> R {
    let fileSystem = try SmallFileSystem(bytes: bytes)
    defer { fileSystem.unmount() }
    if filled { try fileSystem.fill() }
    return try await body(fileSystem)
}
