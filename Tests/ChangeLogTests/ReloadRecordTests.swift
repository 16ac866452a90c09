import Foundation
import ListAdapter
import Testing

@testable import ChangeLog

/// The reload flag of updated items in revision records (RecordFormat.md, "Revision records"):
/// stored only when a reload exists, so records without one keep their bytes.
@Suite("Record format: reload or reconfigure")
struct ReloadRecordTests {
    static let path = ItemPath(section: 0, item: 0)

    static func body(_ kind: ItemUpdateKind) throws -> RevisionRecordBody {
        let snapshot = try LogSnapshot(sections: [.init(title: "A", items: [.init(id: "a", summary: "t")])])
        let changes = LogChanges(updatedItems: [.init(from: path, to: path, summary: "t", kind: kind)])
        return RevisionRecordBody(
            version: RevisionRecordBody.version(snapshot: snapshot, changes: changes), timestamp: 1000, meta: [:],
            sectionCount: 1, itemCount: 1, sectionRuns: [3], changes: changes)
    }

    /// `content` sealed for revision 1.
    static func sealed(_ content: [UInt8]) -> [UInt8] {
        content + withUnsafeBytes(of: ContentHash.checksum(content, seed: 1).littleEndian) { Array($0) }
    }

    static func decode(_ bytes: [UInt8]) throws -> RevisionRecordBody {
        try bytes.withUnsafeBytes { try RevisionRecordBody(decoding: $0, revision: 1) }
    }

    @Test("a reload makes a version-2 record with the update-kinds flag and a kind byte per updated item")
    func reloadBytes() throws {
        let body = try Self.body(.reload)
        #expect(body.version == 2)
        let bytes = body.encoded(revision: 1)
        let expected: [UInt8] = [
            0x02, 0x01, 0xD0, 0x0F, 0x00, 0x01, 0x01, 0x01, 0x03,  // version 2, flags 1, header
            0x00, 0x00, 0x00, 0x00,  // no deleted, inserted, moved or updated sections
            0x00, 0x00, 0x00,  // no deleted, inserted or moved items
            0x01, 0x00, 0x00, 0x00, 0x00, 0x02, 0x74, 0x01,  // one update: [0,0] to [0,0], "t", reload
        ]
        #expect(Array(bytes.dropLast(8)) == expected)
        #expect(try Self.decode(bytes) == body)
        #expect(try Self.decode(bytes).changes.updatedItems.map(\.kind) == [.reload])
    }

    @Test("without a reload the record is version 1, no flags, no kind bytes, as before kinds existed")
    func reconfigureBytes() throws {
        let body = try Self.body(.reconfigure)
        #expect(body.version == 1)
        let bytes = body.encoded(revision: 1)
        let expected: [UInt8] = [
            0x01, 0x00, 0xD0, 0x0F, 0x00, 0x01, 0x01, 0x01, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00,
            0x00, 0x00, 0x00, 0x02, 0x74,
        ]
        #expect(Array(bytes.dropLast(8)) == expected)
        #expect(try Self.decode(bytes) == body)
    }

    @Test("an unknown flag, the update-kinds flag in a version-1 record, or an unknown kind is malformed")
    func refused() throws {
        let content = Array(try Self.body(.reload).encoded(revision: 1).dropLast(8))
        var unknownFlag = content
        unknownFlag[1] = 0x03
        var versionOne = content
        versionOne[0] = 0x01
        var unknownKind = content
        unknownKind[unknownKind.count - 1] = 0x02
        for (bytes, reason) in [
            (unknownFlag, "unknown flags 3"), (versionOne, "unknown flags 1"), (unknownKind, "unknown update kind 2"),
        ] {
            let error = #expect(throws: RevisionRecordBody.Failure.self) { try Self.decode(Self.sealed(bytes)) }
            guard case .malformed(let decoding)? = error else {
                Issue.record("not malformed: \(String(describing: error))")
                continue
            }
            #expect(decoding.reason == reason)
        }
    }

    @Test("appended changes keep their kinds through the log: reloads read back, the log verifies")
    func throughTheLog() async throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("ChangeLogTests-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let log = try ChangeLog(path: path)
        let first = try LogSnapshot(sections: [.init(title: "A", items: [.init(id: "a", summary: "1")])])
        let second = try LogSnapshot(sections: [.init(title: "A", items: [.init(id: "a", summary: "2")])])
        let third = try LogSnapshot(sections: [.init(title: "A", items: [.init(id: "a", summary: "3")])])
        _ = try await log.append(first)
        var reload = first.changes(to: second)
        reload.updatedItems[0].kind = .reload
        _ = try await log.append(second, changes: reload)
        _ = try await log.append(third, changes: second.changes(to: third))
        #expect(try log.record(at: 2).changes == reload)
        #expect(try log.record(at: 2).changes.updatedItems.map(\.kind) == [.reload])
        #expect(try log.record(at: 3).changes.updatedItems.map(\.kind) == [.reconfigure])
        #expect(try SectionSummaryLogTests.versions(of: log) == [1, 2, 1])
        #expect(try await log.verify().isValid)
    }
}
