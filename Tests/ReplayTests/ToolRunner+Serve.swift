import ChangeLogTestSupport
import Foundation
import Testing

extension ToolRunner {
    /// Starts `replay serve --port P` (0 by default: a port the system chooses) with `arguments`
    /// (at least `--log PATH`) and reads the loopback port from the line it prints once listening.
    /// `launcher`, when given, runs the tool (its last element is the tool's path).
    static func serve(_ arguments: [String], port: Int = 0, launcher: [String] = []) async throws -> (
        Running, port: Int
    ) {
        let server = try start(["serve", "--port", String(port)] + arguments, launcher: launcher)
        let handle = server.stdout.fileHandleForReading
        let line = await LoopbackHTTP.onThread { () -> String in
            var bytes = Data()
            while !bytes.contains(UInt8(ascii: "\n")) {
                let chunk = handle.nextChunk()
                if chunk.isEmpty { break }
                bytes.append(chunk)
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        let match = try #require(line.firstMatch(of: /^listening on http:\/\/127\.0\.0\.1:(\d+)\/\n$/), "\(line)")
        return (server, Int(match.1)!)
    }
}
