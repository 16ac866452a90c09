import CLMDB
import ChangeLogTestSupport
import Foundation
import Testing

@testable import ChangeLog

/// Meta pages that name impossible pages: LMDB trusts them, and aborts on its assertion
/// `root > 1` (ending this test run), or sizes its map after a last page past the file. They
/// are refused as damage before LMDB reads them, when the log opens and when a transaction
/// begins.
@Suite("Damaged meta pages")
struct MetaPageTests {
    /// A closed log of three revisions at `path`.
    static func makeLog(at path: String) async throws {
        let log = try ChangeLog(path: path)
        for version in 0..<3 {
            _ = try await log.append(try makeSnapshot(sections: 2, itemsPerSection: 5, version: version))
        }
    }

    static func damagedOpeningMessage(_ path: String) -> String {
        "cannot open the log at \(path): its data file is damaged, or shorter than the pages its header says are in "
            + "use (a partial copy, a disk that filled up while copying); restore the log from a backup"
    }

    @Test(
        "an impossible newer meta page is refused when the log opens, for reading and for writing",
        arguments: MetaPageDamage.allCases)
    func refusedAtOpen(damage: MetaPageDamage) async throws {
        try await withTemporaryDirectory { path in
            try await Self.makeLog(at: path)
            try damage.apply(toLogAt: path)
            for options in [ChangeLog.Options(readOnly: true), ChangeLog.Options()] {
                let error = #expect(throws: ChangeLogError.self) { _ = try ChangeLog(path: path, options: options) }
                #expect(error?.code == .cannotOpen, "\(String(describing: error))")
                // A page size changed in the first meta page makes LMDB miss the second one: it
                // refuses the file as no LMDB file, before this package's check could.
                if damage == .oddPageSize, (error?.cause as? LMDBError)?.code == MDB_INVALID {
                    #expect(error?.message.contains("its data.mdb is not an LMDB data file") == true)
                    continue
                }
                #expect(error?.message == Self.damagedOpeningMessage(path), "\(String(describing: error))")
                #expect((error?.cause as? LMDBError)?.code == MDB_CORRUPTED)
            }
        }
    }

    @Test("a meta page damaged while the log is open is refused when the next transaction begins")
    func refusedAtTransactionBegin() async throws {
        try await withTemporaryDirectory { path in
            try await Self.makeLog(at: path)
            let log = try ChangeLog(path: path, options: .init(readOnly: true))
            #expect(try log.latestRevision == 3)
            try MetaPageDamage.mainRootZero.apply(toLogAt: path)
            // File systems stamp writes with a coarse clock (a few milliseconds): a write in the
            // same tick as the last check leaves the modification time as it was. Stamp it later,
            // as any write a tick after the log's last commit does.
            let later = Date().addingTimeInterval(5)
            try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: path + "/data.mdb")
            let error = #expect(throws: ChangeLogError.self) { _ = try log.snapshot(at: 1) }
            #expect(error?.reportsDamage == true, "\(String(describing: error))")
            #expect(error?.message.contains("its data file is damaged") == true, "\(String(describing: error))")
        }
    }

    @Test("a named database's record whose root is a meta page is refused when the log opens", arguments: [0, 1])
    func namedDatabaseRoot(root: UInt64) async throws {
        try await withTemporaryDirectory { path in
            try await Self.makeLog(at: path)
            #expect(try MetaPageDamage.setRecordRoot(ofDatabase: "revisions", ofLogAt: path, to: root) >= 1)
            let error = #expect(throws: ChangeLogError.self) {
                _ = try ChangeLog(path: path, options: .init(readOnly: true))
            }
            #expect(error?.reportsDamage == true, "\(String(describing: error))")
        }
    }

    @Test("the checks accept every meta page of a log as it grows and shrinks")
    func acceptsWellFormed() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            for version in 0..<30 {
                _ = try await log.append(try makeSnapshot(sections: 3, itemsPerSection: 40, version: version))
                let descriptor = open(path + "/data.mdb", O_RDONLY)
                defer { close(descriptor) }
                let pages = MetaPage.read(descriptor: descriptor)
                let length = Int(lseek(descriptor, 0, SEEK_END))
                for page in [pages.0, pages.1] {
                    let page = try #require(page)
                    #expect(page.damage(fileLength: length) == nil, "\(page)")
                }
            }
            _ = try await log.dropRevisions(before: 25)
            #expect(try log.snapshot(at: 30) == makeSnapshot(sections: 3, itemsPerSection: 40, version: 29))
        }
    }

    @Test("each impossible figure is named")
    func damageNames() throws {
        var bytes = [UInt8](repeating: 0, count: MetaPage.size)
        func store(_ value: UInt64, at offset: Int, count: Int = 8) {
            for index in 0..<count { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(index))) }
        }
        store(0x08, at: 10, count: 2)
        store(UInt64(MetaPage.magic), at: 16, count: 4)
        store(1, at: 20, count: 4)
        store(4_096, at: 40, count: 4)
        store(MetaPage.DatabaseRecord.noPage, at: 80)
        store(1, at: 94, count: 2)
        store(5, at: 128)
        store(9, at: 136)
        var page = try #require(bytes.withUnsafeBytes { MetaPage($0) })
        #expect(page.damage(fileLength: 40_960) == nil)
        #expect(page.damage(fileLength: 40_959) == "a last page of 9, past the end of a file of 40959 bytes")
        page.main.root = 1
        #expect(page.damage(fileLength: 40_960) == "a main database with a root of page 1, which is a meta page")
        page.main.root = 5
        page.main.depth = 33
        #expect(page.damage(fileLength: 40_960) == "a main database with a tree of depth 33")
        page.main.depth = 1
        page.free.root = 12
        #expect(page.damage(fileLength: 40_960) == "a free-page database with a root of page 12, past the last page 9")
        page.free.root = MetaPage.DatabaseRecord.noPage
        page.lastPage = .max
        #expect(page.damage(fileLength: .max) != nil)
        page.lastPage = 9
        page.pageSize = 4_095
        #expect(page.damage(fileLength: 40_960) == "a page size of 4095 bytes")
        bytes[16] ^= 1
        #expect(bytes.withUnsafeBytes { MetaPage($0) } == nil)
    }
}
