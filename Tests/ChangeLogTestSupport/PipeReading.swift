import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension FileHandle {
    /// The bytes that one `read(2)` returns, waiting for some: empty at the end of the file or
    /// pipe, or when it cannot be read (the reader ends either way).
    ///
    /// `availableData` stops the process on `EINTR` (it reports the error with `try!`), which a
    /// signal delivered to the reading thread causes; this read tries again.
    package func nextChunk(maximum: Int = 1 << 16) -> Data {
        var bytes = [UInt8](repeating: 0, count: maximum)
        while true {
            let count = bytes.withUnsafeMutableBytes { Glibc.read(fileDescriptor, $0.baseAddress, maximum) }
            if count >= 0 { return Data(bytes[0..<count]) }
            if errno != EINTR { return Data() }
        }
    }

    /// Every byte up to the end of the file or pipe, read as ``nextChunk(maximum:)`` reads:
    /// `readToEndRetryingInterruptions()` stops the process on `EINTR` as `availableData` does.
    package func readToEndRetryingInterruptions() -> Data {
        var data = Data()
        while true {
            let chunk = nextChunk()
            if chunk.isEmpty { return data }
            data.append(chunk)
        }
    }
}
