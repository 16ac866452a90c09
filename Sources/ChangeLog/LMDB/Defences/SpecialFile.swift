#if LMDB
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// A file of an environment, `data.mdb` or `lock.mdb`, that is not a regular file: a FIFO, a
    /// device, a socket or a directory in its place.
    ///
    /// LMDB opens both files without looking at what they are. Opening a FIFO for reading waits
    /// for a writer that never comes, so a reading open hangs forever; a device maps or reads
    /// whatever the device holds; a socket or a directory fails somewhere deep in LMDB with an
    /// error that does not name the file. Both paths are examined with `stat` (which follows
    /// symbolic links, as LMDB's `open` does, and opens nothing) before LMDB opens either, and an
    /// environment with such a file is refused (``LMDBEnvironment/open(directory:configuration:)``
    /// throws `ENODEV`, `mmap`'s answer for a file that cannot be mapped).
    ///
    /// A file swapped for a special one between this check and LMDB's `open` is not caught: that
    /// takes a process that may write the log's directory, which can do worse to the log anyway.
    package struct SpecialFile: Hashable, Sendable {
        /// What the file is instead of a regular file.
        package enum Kind: Hashable, Sendable {
            /// A FIFO (named pipe): opening it for reading waits for a writer.
            case fifo
            /// A character device, such as `/dev/zero`.
            case characterDevice
            /// A block device, such as a disk.
            case blockDevice
            /// A Unix-domain socket.
            case socket
            /// A directory.
            case directory
            /// Any other type `stat` may report.
            case other
        }

        /// The file's name in the environment's directory: `data.mdb` or `lock.mdb`.
        package var name: String
        /// What it is.
        package var kind: Kind

        /// The files of an environment, in the order they are examined.
        package static let environmentFiles = ["data.mdb", "lock.mdb"]

        /// The first of `data.mdb` and `lock.mdb` in `directory` that exists and is not a regular
        /// file, or `nil` when there is none. A file that is missing (LMDB creates it) or cannot be
        /// examined (LMDB's own open reports why) is not one.
        ///
        /// - Complexity: two `stat` calls.
        package static func first(inDirectory directory: String) -> SpecialFile? {
            for name in environmentFiles {
                if let kind = kind(ofFileAt: directory + "/" + name) {
                    return SpecialFile(name: name, kind: kind)
                }
            }
            return nil
        }

        /// What the file at `path` is when it exists and is not a regular file; `nil` otherwise.
        package static func kind(ofFileAt path: String) -> Kind? {
            var information = stat()
            guard stat(path, &information) == 0 else { return nil }
            switch information.st_mode & S_IFMT {
            case S_IFREG: return nil
            case S_IFIFO: return .fifo
            case S_IFCHR: return .characterDevice
            case S_IFBLK: return .blockDevice
            case S_IFSOCK: return .socket
            case S_IFDIR: return .directory
            default: return .other
            }
        }
    }

    extension SpecialFile.Kind: CustomStringConvertible {
        /// The kind with its article, as messages use it: "a FIFO (named pipe)", "a socket".
        package var description: String {
            switch self {
            case .fifo: "a FIFO (named pipe)"
            case .characterDevice: "a character device"
            case .blockDevice: "a block device"
            case .socket: "a socket"
            case .directory: "a directory"
            case .other: "a special file"
            }
        }
    }
#endif
