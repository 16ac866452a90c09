import ChangeLogTestSupport
import Foundation
import Testing

@testable import ChangeLog

/// A log whose main database names each of its revisions and chunks trees under the other's
/// name: every tree is sound, so the page walk passes, and an untrusted open refuses it by its
/// records.
@Suite("Opening a log whose databases were exchanged")
struct ExchangedDatabasesTests {
    @Test("an untrusted open refuses a log whose revisions and chunks databases were exchanged")
    func exchangedDatabases() async throws {
        try await withTemporaryDirectory { path in
            _ = try await HostileLogFileTests.makeLog(at: path)
            try DatabaseSwap.exchange(
                "revisions", "chunks", inDataFileAt: path + "/data.mdb", pageSize: Int(getpagesize()))
            let error = #expect(throws: ChangeLogError.self) {
                _ = try ChangeLog(path: path, options: .init(readOnly: true, untrusted: true))
            }
            #expect(
                [.malformedRecord, .checksumMismatch, .unsupportedFormat].contains(error?.code),
                "\(String(describing: error))")
            #expect(error?.message.contains("record of revision") == true, "\(String(describing: error))")
        }
    }

    @Test("a trusted open does not read records at open: the exchange shows at the first record read")
    func trustedOpen() async throws {
        try await withTemporaryDirectory { path in
            _ = try await HostileLogFileTests.makeLog(at: path)
            try DatabaseSwap.exchange(
                "revisions", "chunks", inDataFileAt: path + "/data.mdb", pageSize: Int(getpagesize()))
            let log = try ChangeLog(path: path, options: .init(readOnly: true))
            #expect(throws: ChangeLogError.self) { _ = try log.snapshot(at: try log.latestRevision) }
        }
    }
}
