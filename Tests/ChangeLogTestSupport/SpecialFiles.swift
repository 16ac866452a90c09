import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Files that are not regular files, made where a log's `data.mdb` or `lock.mdb` (or the log's
/// directory) would be: what a hostile or confused user can put there without root.
package enum SpecialFileKind: String, CaseIterable, Sendable, CustomStringConvertible {
    /// A FIFO (`mkfifo`): opening it for reading waits for a writer.
    case fifo
    /// A character device: a symbolic link to `/dev/zero`, whose reads and maps never end.
    case characterDevice
    /// A Unix-domain socket, bound at the path.
    case socket

    package var description: String { rawValue }

    /// The words the library's messages use for this kind.
    package var phrase: String {
        switch self {
        case .fifo: "a FIFO (named pipe)"
        case .characterDevice: "a character device"
        case .socket: "a socket"
        }
    }

    /// Makes a file of this kind at `path`, which must not exist.
    package func make(at path: String) throws {
        switch self {
        case .fifo:
            guard mkfifo(path, 0o644) == 0 else { throw SpecialFileFailure(call: "mkfifo", code: errno) }
        case .characterDevice:
            guard symlink("/dev/zero", path) == 0 else { throw SpecialFileFailure(call: "symlink", code: errno) }
        case .socket:
            try Self.bindSocket(at: path)
        }
    }

    /// Binds a Unix-domain socket at `path` and closes it: the socket file stays.
    private static func bindSocket(at path: String) throws {
        #if canImport(Glibc)
            let descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = Darwin.socket(AF_UNIX, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw SpecialFileFailure(call: "socket", code: errno) }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { throw SpecialFileFailure(call: "bind", code: ENAMETOOLONG) }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else { throw SpecialFileFailure(call: "bind", code: errno) }
    }
}

/// A system call that failed while making a special file.
package struct SpecialFileFailure: Error, CustomStringConvertible {
    /// The call.
    package var call: String
    /// Its `errno`.
    package var code: Int32

    package var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
}
