import CZlib
import Foundation

/// Gzipped input, read in-process with zlib: a gzipped export is what a crash report attaches.
enum Gzip {
    /// Whether `data` starts as a gzip stream does (its magic bytes 1f 8b).
    static func isGzipped(_ data: Data) -> Bool {
        data.count >= 2 && data[data.startIndex] == 0x1F && data[data.startIndex + 1] == 0x8B
    }

    /// The bytes `data`, a gzip stream (or several, one after another, as `cat a.gz b.gz` gives),
    /// holds.
    /// - Throws: a message saying where the stream is damaged or cut short.
    static func decompress(_ data: Data) throws(GzipError) -> Data {
        var stream = z_stream()
        // 15 + 16: a window of up to 32 KiB, gzip framing.
        guard inflateInit2_(&stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw GzipError(message: "zlib could not start decompressing")
        }
        defer { inflateEnd(&stream) }
        var output = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let input = [UInt8](data)
        return try input.withUnsafeBufferPointer { (bytes) throws(GzipError) -> Data in
            stream.next_in = UnsafeMutablePointer(mutating: bytes.baseAddress)
            stream.avail_in = UInt32(bytes.count)
            while true {
                let status = buffer.withUnsafeMutableBufferPointer { out in
                    stream.next_out = out.baseAddress
                    stream.avail_out = UInt32(out.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                output.append(contentsOf: buffer[0..<(buffer.count - Int(stream.avail_out))])
                switch status {
                case Z_STREAM_END:
                    // Another member may follow.
                    guard stream.avail_in > 0 else { return output }
                    guard inflateReset(&stream) == Z_OK else {
                        throw GzipError(message: "zlib could not go on to the next gzip member")
                    }
                case Z_OK:
                    continue
                case Z_BUF_ERROR where stream.avail_in == 0:
                    throw GzipError(
                        message: "the gzip stream ends early, after \(stream.total_in) bytes: the file was cut short")
                default:
                    let reason = stream.msg.map { String(cString: $0) } ?? "error \(status)"
                    throw GzipError(message: "the gzip stream is damaged after \(stream.total_in) bytes: \(reason)")
                }
            }
        }
    }
}

/// Why a gzip stream could not be read.
struct GzipError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
