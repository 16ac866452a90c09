import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads `descriptor` to its end, retrying interrupted reads; `failure` turns the `errno` of a
/// failed read into the error to throw.
///
/// Reads until the descriptor says there is no more, never by a size known in advance: a pipe
/// has none, and a `/proc` file reports 0 (Foundation's readers return only the first 4 KB of
/// `/proc/self/maps`). The `replay` tool reads its input files and standard input with it.
///
/// With `stopAfterNUL`, for text that cannot hold a NUL byte (JSON), reading stops after the
/// block that holds the first one: the text is refused anyway, at that byte or before, and an
/// input that never ends (`/dev/zero`) is not read until memory runs out.
package func readToEnd<Failure: Error>(
    _ descriptor: Int32, stopAfterNUL: Bool = false, failure: (Int32) throws(Failure) -> Never
) throws(Failure) -> Data {
    var data = Data()
    var block = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = block.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count == 0 { return data }
        if count < 0 {
            let code = errno
            if code == EINTR { continue }
            try failure(code)
        }
        data.append(contentsOf: block[..<count])
        if stopAfterNUL, block[..<count].contains(0) { return data }
    }
}
