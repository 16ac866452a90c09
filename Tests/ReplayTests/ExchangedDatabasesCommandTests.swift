import ChangeLogTestSupport
import Foundation
import Testing

/// A log whose revisions and chunks databases were exchanged in its main database (each tree
/// sound): every reading command, `serve` included, refuses it at open with the same one line
/// (`verify` as a failed verification), instead of the server reporting chunk IDs as revisions.
@Suite("replay on a log whose databases were exchanged")
struct ExchangedDatabasesCommandTests {
    @Test("every reading command and serve refuse the log with one line naming the record")
    func refused() async throws {
        let (directory, log) = try await ReadingCommandTests.makeLog()
        defer { directory.remove() }
        try DatabaseSwap.exchange("revisions", "chunks", inDataFileAt: log + "/data.mdb", pageSize: Int(getpagesize()))
        var answers: Set<String> = []
        for command in SpecialFileCommandTests.readingCommands + [["serve", "--port", "0"]] {
            let result = try await ToolRunner.run(command + ["--log", log])
            // `verify` reports a log it cannot read as a failed verification (exit 1).
            let verifying = command == ["verify"]
            let prefix = verifying ? "replay: verification failed: " : "replay: "
            #expect(result.status == (verifying ? 1 : 2), "\(command): \(result)")
            #expect(result.stdout.isEmpty, "\(command): \(result)")
            #expect(result.stderr.hasPrefix(prefix + "the record of revision"), "\(command): \(result)")
            #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(command): \(result)")
            answers.insert(String(result.stderr.dropFirst(prefix.count)))
        }
        #expect(answers.count == 1, "\(answers)")
    }
}
