import Foundation
import SystemPackage

/// Reads an input a given number of lines at a time, holding only those lines and one block
/// read ahead: what `replay import --commit-every` reads, so that its memory is bounded by a
/// batch of lines rather than by the input.
///
/// Lines are numbered from 1 and end at a line feed; a last line without one ends at the
/// input's end. Reads are retried when interrupted, and go on until the descriptor says there
/// is no more, so pipes and `/proc` files read whole.
struct LineBatchReader: ~Copyable {
    /// A run of consecutive lines, each ending with its line feed (the input's last line may
    /// have none).
    struct Batch {
        /// The lines' bytes.
        var text: Data
        /// The number of the batch's first line.
        var firstLine: Int
        /// How many lines the batch holds.
        var lineCount: Int
    }

    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private let name: String
    private let stopAfterNUL: Bool
    /// Bytes read and not yet handed out: the start of the lines after the last batch.
    private var pending = Data()
    /// How many line feeds of `pending`'s start were counted, where the last of them ends, and
    /// where counting resumes.
    private var pendingLines = 0
    private var linesEnd = 0
    private var scanned = 0
    private var atEnd = false
    /// The number of the next line to hand out or skip.
    private(set) var nextLine = 1
    /// The bytes read so far, the bytes of the lines handed out or skipped, and the input's
    /// size when it is a regular file.
    private(set) var bytesRead = 0
    private(set) var bytesHandedOut = 0
    let size: Int?

    /// Opens `path` (`-` for standard input) for reading. With `stopAfterNUL`, for input that is
    /// refused at its first NUL byte, reading ends after the block holding it, so that an input
    /// that never ends (`/dev/zero`) is not read until memory runs out.
    init(path: String, stopAfterNUL: Bool) throws(InputError) {
        self.stopAfterNUL = stopAfterNUL
        if path == "-" {
            descriptor = STDIN_FILENO
            ownsDescriptor = false
            name = "standard input"
        } else {
            if path.isEmpty {
                throw InputError("an input file's path is empty (\"\"): pass a file, or - for standard input")
            }
            do {
                descriptor = try FileDescriptor.open(FilePath(path), .readOnly, options: .closeOnExec).rawValue
            } catch {
                let code = error as? Errno
                throw InputError(
                    code == .noSuchFileOrDirectory ? "\(path): no such file" : "\(path): cannot be read: \(error)")
            }
            ownsDescriptor = true
            name = path
        }
        var status = stat()
        size = fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG ? Int(status.st_size) : nil
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// Skips the lines before line `line` unread by any decoder.
    ///
    /// - Returns: false when the input ends before line `line`.
    mutating func skip(to line: Int) throws(InputError) -> Bool {
        while nextLine < line {
            guard let batch = try next(lines: min(line - nextLine, 1 << 16)) else { return false }
            _ = batch
        }
        return true
    }

    /// The next `count` lines, fewer at the input's end; `nil` once the input is read.
    mutating func next(lines count: Int) throws(InputError) -> Batch? {
        while pendingLines < count {
            if let feed = Self.lineFeed(in: pending, from: scanned) {
                pendingLines += 1
                scanned = feed + 1
                linesEnd = scanned
            } else {
                scanned = pending.count
                if atEnd { break }
                try readBlock()
            }
        }
        var end = linesEnd
        var lineCount = pendingLines
        if pendingLines < count, linesEnd < pending.count {
            // The input's last line, without a line feed.
            end = pending.count
            lineCount += 1
        }
        guard lineCount > 0 else { return nil }
        let batch = Batch(text: Data(pending.prefix(end)), firstLine: nextLine, lineCount: lineCount)
        pending = Data(pending.dropFirst(end))
        nextLine += lineCount
        bytesHandedOut += end
        pendingLines = 0
        scanned = 0
        linesEnd = 0
        return batch
    }

    /// Whether the input holds more bytes after the lines handed out.
    mutating func hasMore() throws(InputError) -> Bool {
        while pending.isEmpty, !atEnd { try readBlock() }
        return !pending.isEmpty
    }

    /// The offset of the first line feed of `data` at or after `offset`.
    private static func lineFeed(in data: Data, from offset: Int) -> Int? {
        data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress, offset < raw.count else { return nil }
            return memchr(base + offset, Int32(UInt8(ascii: "\n")), raw.count - offset)
                .map { base.distance(to: UnsafeRawPointer($0)) }
        }
    }

    private mutating func readBlock() throws(InputError) {
        var block = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = block.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                if descriptor == STDIN_FILENO, StandardStream.input.wasClosedAtStart {
                    throw InputError("standard input cannot be read: it was closed when replay started")
                }
                throw InputError("\(name): cannot be read: \(Errno(rawValue: code))")
            }
            if count == 0 {
                atEnd = true
                return
            }
            bytesRead += count
            pending.append(contentsOf: block[..<count])
            if stopAfterNUL, block[..<count].contains(0) { atEnd = true }
            return
        }
    }
}
