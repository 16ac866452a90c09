import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file written beside its destination under a temporary name and put in place whole by
/// ``commit()``: a reader never sees half of it, and a failure leaves the destination as it was.
/// Without `force`, an existing destination is never replaced, even one that appeared while the
/// file was being written.
final class StagedFile {
    let destination: String
    let force: Bool
    private let temporary: String
    private let handle: FileHandle
    private var buffer = Data()
    /// The bytes written so far.
    private(set) var bytesWritten = 0

    /// Creates the temporary file in the destination's directory.
    /// - Throws: ``InputError`` naming the directory when the file cannot be created there.
    init(replacing destination: String, force: Bool) throws {
        self.destination = destination
        self.force = force
        let url = URL(fileURLWithPath: destination)
        let directory = url.deletingLastPathComponent().path
        temporary =
            url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(getpid()).partial").path
        guard FileManager.default.createFile(atPath: temporary, contents: nil),
            let handle = FileHandle(forWritingAtPath: temporary)
        else {
            throw InputError("cannot create \(destination): cannot write a file in \(directory)")
        }
        self.handle = handle
    }

    /// Appends `text`, in UTF-8.
    func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        bytesWritten += text.utf8.count
        if buffer.count >= 1 << 20 { try flush() }
    }

    private func flush() throws {
        do {
            try handle.write(contentsOf: buffer)
        } catch {
            throw InputError("cannot write \(destination): \(error.localizedDescription)")
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes what is buffered, closes the file and puts it at the destination.
    /// - Throws: ``InputError`` when the destination exists and `force` is off, or the move fails.
    func commit() throws {
        try flush()
        do {
            try handle.synchronize()
            try handle.close()
        } catch {
            throw InputError("cannot write \(destination): \(error.localizedDescription)")
        }
        if force {
            guard rename(temporary, destination) == 0 else {
                let reason = String(cString: strerror(errno))
                discard()
                throw InputError("cannot write \(destination): \(reason)")
            }
        } else {
            // link(2) refuses an existing destination, so nothing is replaced without --force.
            let linked = link(temporary, destination)
            let number = errno
            unlink(temporary)
            guard linked == 0 else {
                throw InputError(
                    number == EEXIST
                        ? "\(destination) exists; pass --force to replace it"
                        : "cannot write \(destination): \(String(cString: strerror(number)))")
            }
        }
    }

    /// Removes the temporary file.
    func discard() {
        try? handle.close()
        unlink(temporary)
    }
}
