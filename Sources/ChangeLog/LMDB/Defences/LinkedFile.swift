#if LMDB
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// A symbolic link in place of `data.mdb` or `lock.mdb`.
    ///
    /// LMDB opens both files by name and follows links: a writer writes its pages, and every
    /// opener but one that reads without the lock file writes the lock file's header, into
    /// whatever the link names, and creates the target of a dangling one. A log's files are never
    /// followed through a link: an environment whose `data.mdb` is one is refused, and so is one
    /// whose `lock.mdb` is one when it is opened for writing
    /// (``LMDBEnvironment/open(directory:configuration:)`` throws `ELOOP`, `open`'s answer to
    /// `O_NOFOLLOW` on a link). A reading open reads past a linked lock file without it instead
    /// (``LockFileDistrust``). The log's directory itself may be a link: it is the path the
    /// caller chose.
    ///
    /// As with ``SpecialFile``, a file swapped for a link between this check and LMDB's `open` is
    /// not caught: that takes a process that may write the log's directory meanwhile.
    package struct LinkedFile: Hashable, Sendable {
        /// The file's name in the environment's directory: `data.mdb` or `lock.mdb`.
        package var name: String
        /// What the link points to, as it is written in the link.
        package var target: String

        /// The first of `names` in `directory` that is a symbolic link, or `nil` when none is.
        ///
        /// - Complexity: one `lstat` per name, and a `readlink` for a link.
        package static func first(inDirectory directory: String, names: [String] = SpecialFile.environmentFiles)
            -> LinkedFile?
        {
            for name in names {
                let path = directory + "/" + name
                var information = stat()
                guard lstat(path, &information) == 0, information.st_mode & S_IFMT == S_IFLNK else { continue }
                var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
                let length = readlink(path, &buffer, buffer.count - 1)
                let target =
                    length >= 0
                    ? String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                    : "an unreadable target"
                return LinkedFile(name: name, target: target)
            }
            return nil
        }
    }
#endif
