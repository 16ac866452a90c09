import CLMDB
import ChangeLogTestSupport
import Foundation
import Testing

@testable import ChangeLog

@Suite("Damaged keys")
struct DamagedKeyTests {
    /// Taken at its word, a damaged first key would make the log read as revisions 524,289 to 3:
    /// `statistics()` would trap on the range `524289...3`, and a read of revision 1 would say it
    /// was dropped by retention.
    @Test("a first revision key damaged past the latest is damage, not a range running backwards")
    func firstKeyPastTheLatest() async throws {
        try await withTemporaryDirectory { path in
            do {
                let log = try ChangeLog(path: path)
                for version in 0..<3 {
                    _ = try await log.append(try makeSnapshot(sections: 2, itemsPerSection: 5, version: version))
                }
            }
            #expect(try FileDamage.renumberFirstRevisionKey(ofLogAt: path, to: 524_289) >= 1)
            let log = try ChangeLog(path: path)
            let expected =
                "the first revision key of the log at \(path) reads 524289, and the latest revision is 3: a key was "
                + "damaged, or changed behind the log's back; restore the log from a backup"
            let failures: [(String, ChangeLogError?)] = [
                ("firstRevision", #expect(throws: ChangeLogError.self) { _ = try log.firstRevision }),
                ("record(at: 1)", #expect(throws: ChangeLogError.self) { _ = try log.record(at: 1) }),
                ("statistics()", await #expect(throws: ChangeLogError.self) { _ = try await log.statistics() }),
                ("verify()", await #expect(throws: ChangeLogError.self) { _ = try await log.verify() }),
            ]
            for (operation, error) in failures {
                #expect(error?.code == .malformedRecord, "\(operation): \(String(describing: error))")
                #expect(error?.message == expected, "\(operation)")
            }
            // The revisions after it read as before.
            #expect(try log.record(at: 2).revision == 2)
        }
    }
}

@Suite("What counts as damage")
struct ReportsDamageTests {
    /// `replay verify` and `replay play` fail their check (status 1) on these, and only these.
    @Test("checksum and decoding failures, and LMDB's reports of a damaged file, are damage; other failures are not")
    func reportsDamage() {
        let damage: [ChangeLogError] = [
            ChangeLogError(code: .checksumMismatch, message: ""),
            ChangeLogError(code: .malformedRecord, message: ""),
            ChangeLogError(code: .storage, message: "", cause: LMDBError(code: MDB_CORRUPTED)),
            ChangeLogError(code: .storage, message: "", cause: LMDBError(code: MDB_PAGE_NOTFOUND)),
        ]
        let other: [ChangeLogError] = [
            ChangeLogError(code: .storage, message: "", cause: LMDBError(code: ENOSPC)),
            ChangeLogError(code: .storage, message: ""),
            ChangeLogError(code: .revisionNotFound, message: ""),
            ChangeLogError(code: .cannotOpen, message: "", cause: LMDBError(code: MDB_CORRUPTED)),
        ]
        for error in damage { #expect(error.reportsDamage, "\(error)") }
        for error in other { #expect(!error.reportsDamage, "\(error)") }
    }
}
