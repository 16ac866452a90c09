import Foundation
import ListAdapter
import ListFormat
import Testing

@testable import ChangeLog

@Suite("ChangeLog: revision records as FORMAT.md's JSON")
struct RevisionRecordJSONTests {
    @Test("FORMAT.md's revision line, keys in order, decodes back")
    func jsonLine() async throws {
        let record = RevisionRecord(
            revision: 1, millisecondsSince1970: Timestamp.milliseconds(parsing: "2026-11-20T10:00:00.000Z")!,
            meta: ["z": "last", "commit": "3f2a9c"],
            snapshot: try snapshot([("Section One", ["item_a:Title A", "item_c"])]),
            changes: LogSnapshot().changes(to: try snapshot([("Section One", ["item_a:Title A", "item_c"])])))
        let line = record.jsonLine()
        #expect(
            line == #"{"revision":1,"time":"2026-11-20T10:00:00.000Z","meta":{"commit":"3f2a9c","z":"last"},"#
                + #""snapshot":{"sections":[{"title":"Section One","items":[{"id":"item_a","summary":"Title A"},"#
                + #"{"id":"item_c"}]}]},"changes":{"sections":{"deleted":[],"inserted":[{"index":0,"#
                + #""title":"Section One","items":[{"id":"item_a","summary":"Title A"},{"id":"item_c"}]}],"#
                + #""moved":[],"updated":[]},"items":{"deleted":[],"inserted":[],"moved":[],"updated":[]}}}"#)
        let keys = ["\"revision\"", "\"time\"", "\"meta\"", "\"snapshot\"", "\"changes\""]
        let positions = keys.map { line.range(of: $0)!.lowerBound }
        #expect(positions == positions.sorted())
        #expect(!line.contains("\n"))
        #expect(try RevisionRecord(jsonLine: line.utf8) == record)
        #expect(RevisionRecord(record.revisionLine) == record)

        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            _ = try await log.append(record.snapshot, meta: record.meta)
            _ = try await log.append(try snapshot([("Section One", ["item_c", "item_a:Title A2"])]))
            for revision: UInt64 in [1, 2] {
                let stored = try log.record(at: revision)
                let decoded = try RevisionRecord(jsonLine: stored.jsonLine().utf8)
                #expect(decoded == stored)
            }
        }
    }

    @Test("unknown keys of a revision line are ignored, at every level")
    func jsonLineUnknownKeys() throws {
        let line =
            #"{"revision":2,"v":1,"time":"2026-11-20T10:00:00.000Z","meta":{"k":"v"},"#
            + #""snapshot":{"sections":[{"title":"A","x":[],"items":[{"id":"a","y":{}}]}],"z":null},"#
            + #""changes":{"sections":{"deleted":[0],"inserted":[],"moved":[],"w":1},"items":{"deleted":[],"#
            + #""inserted":[{"at":[0,0],"id":"a","q":"r"}],"moved":[],"updated":[]},"u":[]},"trailer":"t"}"#
        let record = try RevisionRecord(jsonLine: line.utf8)
        #expect(
            record
                == RevisionRecord(
                    revision: 2, millisecondsSince1970: 1_795_168_800_000, meta: ["k": "v"],
                    snapshot: try snapshot([("A", ["a"])]),
                    changes: LogChanges(
                        deletedSections: [0],
                        insertedItems: [.init(at: .init(section: 0, item: 0), id: "a", summary: nil)])))
    }

    /// The message quoted the whole time it could not read.
    @Test("a revision line's huge unreadable time is named by an excerpt")
    func hugeTime() {
        let time = String(repeating: "9", count: 1_000_000)
        let line =
            #"{"revision":1,"time":"\#(time)","meta":{},"snapshot":{"sections":[]},"#
            + #""changes":{"sections":{"deleted":[],"inserted":[],"moved":[]},"#
            + #""items":{"deleted":[],"inserted":[],"moved":[],"updated":[]}}}"#
        let error = #expect(throws: FormatError.self) {
            _ = try RevisionRecord(jsonLine: line.utf8)
        }
        #expect(error.map { $0.description.utf8.count < 300 } == true)
        #expect(error?.description.hasSuffix("(1000000 bytes)") == true)
        #expect(error?.path == "time")
    }

    @Test("times are written and parsed exactly to the millisecond")
    func timestamps() {
        #expect(Timestamp.iso8601(milliseconds: 0) == "1970-01-01T00:00:00.000Z")
        #expect(Timestamp.iso8601(milliseconds: -1) == "1969-12-31T23:59:59.999Z")
        #expect(Timestamp.iso8601(milliseconds: 951_782_400_123) == "2000-02-29T00:00:00.123Z")
        for milliseconds: Int64 in [0, 1, 999, 1_795_168_800_000, 4_102_444_799_999, 951_782_400_123] {
            #expect(Timestamp.milliseconds(parsing: Timestamp.iso8601(milliseconds: milliseconds)) == milliseconds)
        }
        #expect(Timestamp.milliseconds(parsing: "2026-11-20T10:00:00Z") == 1_795_168_800_000)
        #expect(Timestamp.milliseconds(parsing: "2026-11-20T10:00:00.5Z") == 1_795_168_800_500)
        #expect(Timestamp.milliseconds(parsing: "2026-11-20T10:00:00.123456Z") == 1_795_168_800_123)
        for bad in ["", "2026-11-20", "2026-11-20T10:00:00.000", "2026-13-20T10:00:00Z", "2026-11-20T10:00:00.Z"] {
            #expect(Timestamp.milliseconds(parsing: bad) == nil)
        }
        // Days a month does not have are refused like month 13, not moved into the next month.
        let missingDays = [
            "2026-02-29T00:00:00Z", "2026-02-31T10:00:00.000Z", "2026-04-31T00:00:00Z", "1900-02-29T00:00:00Z",
        ]
        for bad in missingDays {
            #expect(Timestamp.milliseconds(parsing: bad) == nil, "\(bad)")
        }
        #expect(Timestamp.milliseconds(parsing: "2024-02-29T00:00:00Z") == 1_709_164_800_000)
        #expect(Timestamp.milliseconds(parsing: "2000-02-29T00:00:00.123Z") == 951_782_400_123)
        #expect(Timestamp.milliseconds(parsing: "-0004-02-29T00:00:00Z") != nil)
        // Years outside 0...9999 take ISO 8601's expanded form, and every 64-bit time round-trips.
        #expect(Timestamp.iso8601(milliseconds: -62_167_219_200_001) == "-0001-12-31T23:59:59.999Z")
        #expect(Timestamp.iso8601(milliseconds: 253_402_300_800_000) == "+10000-01-01T00:00:00.000Z")
        for milliseconds: Int64 in [
            .min, .min + 1, -62_167_219_200_001, -62_167_219_200_000, 253_402_300_799_999, 253_402_300_800_000,
            .max - 1, .max,
        ] {
            let text = Timestamp.iso8601(milliseconds: milliseconds)
            #expect(Timestamp.milliseconds(parsing: text) == milliseconds, "\(text)")
        }
        for bad in ["+999-01-01T00:00:00Z", "-99999999999999999999-01-01T00:00:00Z", "+-2026-01-01T00:00:00Z"] {
            #expect(Timestamp.milliseconds(parsing: bad) == nil, "\(bad)")
        }
        let ancient = RevisionRecord(
            revision: 1, millisecondsSince1970: -62_167_219_200_001, meta: [:], snapshot: LogSnapshot(),
            changes: LogChanges())
        let decoded = try? RevisionRecord(jsonLine: ancient.jsonLine().utf8)
        #expect(decoded == ancient)
        let date = ISO8601DateFormatter().date(from: "2026-11-20T10:00:00Z")!
        #expect(Int64(date.timeIntervalSince1970 * 1000) == 1_795_168_800_000)
    }
}
