import CLMDB
import ChangeLogTestSupport
import Foundation
import Testing

@testable import ChangeLog

/// A last-page number damaged past the data file's end makes LMDB size its map after it: at
/// open, and, for a log already open, when a transaction begins (`MDB_MAP_RESIZED`, adopted by
/// remapping to the size the meta page implies). Either way the error says the log is damaged,
/// not that the map is too large for the process.
@Suite("Damaged last-page numbers")
struct DamagedLastPageTests {
    @Test(
        "a last page damaged while the log is open is reported as damage, for reads and appends",
        arguments: [MetaPageDamage.lastPageHuge, .lastPageLargest], [true, false])
    func damagedWhileOpen(damage: MetaPageDamage, readOnly: Bool) async throws {
        try await withTemporaryDirectory { path in
            try await MetaPageTests.makeLog(at: path)
            let log = try ChangeLog(path: path, options: .init(readOnly: readOnly))
            #expect(try log.latestRevision == 3)
            try damage.apply(toLogAt: path)
            // A write a tick after the log's last commit changes the modification time (see
            // MetaPageTests.refusedAtTransactionBegin).
            let later = Date().addingTimeInterval(5)
            try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: path + "/data.mdb")
            let error = #expect(throws: ChangeLogError.self) { _ = try log.snapshot(at: 1) }
            #expect(error?.reportsDamage == true, "\(String(describing: error)) \(String(describing: error?.cause))")
            #expect(error?.message.contains("its data file is damaged") == true, "\(String(describing: error))")
            #expect(error?.message.contains("map") == false, "\(String(describing: error))")
            if !readOnly {
                let appendError = await #expect(throws: ChangeLogError.self) {
                    _ = try await log.append(try makeSnapshot(sections: 1, itemsPerSection: 1, version: 9))
                }
                #expect(appendError?.reportsDamage == true, "\(String(describing: appendError))")
            }
        }
    }

    /// The log written just before may still be open in this process (its writer lets it go a
    /// moment after the last append returns): the open then shares its environment, and the
    /// damage is met when the open's first transaction begins rather than by the check at open.
    /// Both say the data file is damaged.
    @Test(
        "a last page damaged before the log opens is reported as damage",
        arguments: [MetaPageDamage.lastPageHuge, .lastPageLargest])
    func damagedBeforeOpen(damage: MetaPageDamage) async throws {
        try await withTemporaryDirectory { path in
            try await MetaPageTests.makeLog(at: path)
            try damage.apply(toLogAt: path)
            let error = #expect(throws: ChangeLogError.self) { _ = try ChangeLog(path: path) }
            #expect(error?.message.contains("its data file is damaged") == true, "\(String(describing: error))")
            #expect(error?.message.contains("map") == false, "\(String(describing: error))")
        }
    }
}
