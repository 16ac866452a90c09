#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a file through a window of up to ``capacity`` bytes, refilled with `pread`: the
/// opening scan and the re-scans of readers read frame headers and checksum frames through it
/// with few system calls.
final class FileWindow {
    /// The most bytes the window holds, and the most one ``withBytes(at:count:_:)`` lends.
    static let capacity = 1 << 20

    private let descriptor: Int32
    private var buffer: [UInt8]
    private var start: UInt64 = 0
    private var count = 0

    /// A window on the file open as `descriptor`, which must outlive it.
    init(descriptor: Int32) {
        self.descriptor = descriptor
        buffer = [UInt8](repeating: 0, count: Self.capacity)
    }

    /// Lends the `count` bytes (at most ``capacity``) at `offset` to `body`; `nil` when the file
    /// ends before them.
    ///
    /// - Throws: ``FileEngineError`` when reading fails; what `body` throws.
    func withBytes<R>(at offset: UInt64, count: Int, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R? {
        precondition(count <= Self.capacity)
        if offset < start || offset + UInt64(count) > start + UInt64(self.count) {
            try refill(at: offset)
            guard count <= self.count else { return nil }
        }
        let from = Int(offset - start)
        return try buffer.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[from..<from + count])) }
    }

    /// Feeds the `count` bytes at `offset` to `body` in pieces of at most ``capacity`` bytes;
    /// `false` when the file ends before them.
    func forEachPiece(at offset: UInt64, count: UInt64, _ body: (UnsafeRawBufferPointer) -> Void) throws -> Bool {
        var position = offset
        var left = count
        while left > 0 {
            let piece = Int(min(left, UInt64(Self.capacity)))
            guard try withBytes(at: position, count: piece, body) != nil else { return false }
            position += UInt64(piece)
            left -= UInt64(piece)
        }
        return true
    }

    /// Forgets what the window holds: the file may have changed where it was read.
    func invalidate() {
        count = 0
    }

    private func refill(at offset: UInt64) throws {
        start = offset
        count = 0
        while count < Self.capacity {
            let read = buffer.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + count, Self.capacity - count, off_t(offset) + off_t(count))
            }
            if read < 0 {
                if errno == EINTR { continue }
                throw FileEngineError.systemCall(
                    "reading \(Self.capacity - count) bytes at offset \(offset + UInt64(count))")
            }
            if read == 0 { break }
            count += read
        }
    }
}
