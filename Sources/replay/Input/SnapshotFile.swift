import ChangeLog
import Foundation
import ListAdapter
import ListFormat
import SystemPackage

/// Reads one snapshot from a JSON file, with errors that name the file and the problem.
enum SnapshotFile {
    /// Reads and decodes the snapshot in the file at `path` (`-` for standard input). It is
    /// checked as an import checks a snapshot line
    /// (``ListFormat/InterchangeFormat/readSnapshotFile(_:)``), its `meta` too, which a diff does
    /// not use: a snapshot is the same contract wherever it is read.
    static func read(_ path: String) throws -> ListSnapshot<String, String, String> {
        let data = try readInput(path, stopAfterNUL: true)
        do {
            return try InterchangeFormat.readSnapshotFile(data).snapshot
        } catch {
            // Named as `replay import` names it.
            throw InputError("\(path == "-" ? "standard input" : path): \(error)")
        }
    }
}

/// A problem with the user's input, described in one line.
struct InputError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Reads the file at `path` to its end, or standard input for `-`. The file is read as it
/// comes, waiting for more, so a named pipe, a process substitution (`<(producer)`) or
/// `/dev/stdin` works as well as a regular file. A failure is an ``InputError`` naming the file
/// and the system's reason. With `stopAfterNUL`, for input that is refused at its first NUL byte
/// or before, reading stops there (``ListFormat/readToEnd(_:stopAfterNUL:failure:)``).
func readInput(_ path: String, stopAfterNUL: Bool = false) throws(InputError) -> Data {
    if path == "-" { return try readStandardInput(stopAfterNUL: stopAfterNUL) }
    // An empty path (an unset shell variable) would read as ": no such file", naming nothing.
    if path.isEmpty { throw InputError("an input file's path is empty (\"\"): pass a file, or - for standard input") }
    let descriptor: FileDescriptor
    do {
        descriptor = try FileDescriptor.open(FilePath(path), .readOnly, options: .closeOnExec)
    } catch {
        let code = error as? Errno
        throw InputError(code == .noSuchFileOrDirectory ? "\(path): no such file" : "\(path): cannot be read: \(error)")
    }
    defer { try? descriptor.close() }
    return try readToEnd(descriptor.rawValue, stopAfterNUL: stopAfterNUL) { code throws(InputError) in
        throw InputError("\(path): cannot be read: \(Errno(rawValue: code))")
    }
}

/// Reads standard input to its end; a read that fails (a closed descriptor, a directory) is an
/// ``InputError`` naming standard input and the system's reason.
func readStandardInput(stopAfterNUL: Bool = false) throws(InputError) -> Data {
    try readToEnd(STDIN_FILENO, stopAfterNUL: stopAfterNUL) { code throws(InputError) in
        if StandardStream.input.wasClosedAtStart {
            throw InputError("standard input cannot be read: it was closed when replay started")
        }
        throw InputError("standard input cannot be read: \(Errno(rawValue: code))")
    }
}
