import Foundation
import ListAdapter
import Testing

@testable import ChangeLog

@Suite("Record format")
struct RecordFormatTests {
    @Test("varints, zigzag and strings round-trip at their edges")
    func primitives() throws {
        var writer = RecordWriter()
        let unsigned: [UInt64] = [0, 1, 127, 128, 16_383, 16_384, UInt64(UInt32.max), .max]
        let signed: [Int] = [0, -1, 1, -64, 64, .min, .max]
        let strings = ["", "a", "Ünïcödé ✓", String(repeating: "x", count: 300)]
        unsigned.forEach { writer.writeVarint($0) }
        signed.forEach { writer.writeSigned($0) }
        strings.forEach { writer.writeString($0) }
        writer.writeOptionalString(nil)
        writer.writeOptionalString("")
        writer.writeOptionalString("s")
        #expect(Array(writer.bytes.prefix(3)) == [0, 1, 127])
        try writer.bytes.withUnsafeBytes { bytes throws in
            var reader = RecordReader(bytes)
            for value in unsigned { #expect(try reader.readVarint() == value) }
            for value in signed { #expect(try reader.readSigned() == value) }
            for value in strings { #expect(try reader.readString() == value) }
            #expect(try reader.readOptionalString() == nil)
            #expect(try reader.readOptionalString() == "")
            #expect(try reader.readOptionalString() == "s")
            #expect(reader.isAtEnd)
        }
    }

    @Test("malformed primitives are errors, not traps")
    func malformedPrimitives() throws {
        let cases: [[UInt8]] = [
            [0x80],  // a varint cut short
            [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02],  // more than 64 bits
            [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01],  // more than 10 bytes
            [5, 0x61],  // a string longer than the data
            [2, 0xC3, 0x28],  // invalid UTF-8
        ]
        for bytes in cases {
            bytes.withUnsafeBytes { bytes in
                var reader = RecordReader(bytes)
                #expect(throws: RecordDecodingError.self) {
                    _ = try reader.readVarint()
                    var again = RecordReader(bytes)
                    _ = try again.readString()
                }
            }
        }
        [UInt8]([200, 1]).withUnsafeBytes { bytes in
            var reader = RecordReader(bytes)
            #expect(throws: RecordDecodingError.self) { _ = try reader.readCount() }
        }
    }

    @Test("a revision record round-trips every kind of change, and any truncation fails")
    func revisionRecord() throws {
        let changes = LogChanges(
            deletedSections: [2],
            insertedSections: [
                .init(index: 0, section: .init(title: "New", items: [.init(id: "x", summary: "s"), .init(id: "y")]))
            ],
            movedSections: [.init(from: 0, to: 3)],
            deletedItems: [.init(section: 1, item: 4)],
            insertedItems: [
                .init(at: .init(section: 1, item: 0), id: "y", summary: "t"),
                .init(at: .init(section: 1, item: 1), id: "z", summary: nil),
            ],
            movedItems: [.init(from: .init(section: 1, item: 2), to: .init(section: 2, item: 5))],
            updatedItems: [
                .init(from: .init(section: 1, item: 3), to: .init(section: 1, item: 1), summary: "u"),
                .init(from: .init(section: 0, item: 0), to: .init(section: 0, item: 0), summary: nil),
            ])
        let body = RevisionRecordBody(
            version: RevisionRecordBody.formatVersion, timestamp: -5, meta: ["b": "2", "a": "1", "": "empty"],
            sectionCount: 7, itemCount: 1_000_000,
            sectionRuns: [1, 2, .max], changes: changes)
        let bytes = body.encoded(revision: 42)
        #expect(bytes[0] == RevisionRecordBody.formatVersion)
        #expect(try bytes.withUnsafeBytes { try RevisionRecordBody(decoding: $0, revision: 42) } == body)
        #expect(bytes == body.encoded(revision: 42), "encoding is deterministic")
        #expect(throws: RevisionRecordBody.Failure.self) {
            try bytes.withUnsafeBytes { try RevisionRecordBody(decoding: $0, revision: 43) }
        }
        for length in 0..<bytes.count {
            let prefix = Array(bytes.prefix(length))
            #expect(throws: RevisionRecordBody.Failure.self) {
                try prefix.withUnsafeBytes { try RevisionRecordBody(decoding: $0, revision: 42) }
            }
        }
    }

    @Test("the example of RecordFormat.md is exact")
    func documentedExample() throws {
        let snapshot = try snapshot([("A", ["a:s"])])
        var planner = ChunkPlanner(nextID: 1)
        let stored = planner.store(snapshot, reusing: .empty)
        #expect(stored.runs.map(\.id) == [3])
        let body = RevisionRecordBody(
            version: 1, timestamp: 1000, meta: [:], sectionCount: 1, itemCount: 1, sectionRuns: [3],
            changes: LogSnapshot().changes(to: snapshot))
        let bytes = body.encoded(revision: 1)
        let expected: [UInt8] = [
            0x01, 0x00, 0xD0, 0x0F, 0x00, 0x01, 0x01, 0x01, 0x03, 0x00, 0x01, 0x00, 0x01, 0x41, 0x01, 0x01, 0x61, 0x02,
            0x73, 0x00, 0x00, 0x00, 0x00, 0x00,
        ]
        #expect(Array(bytes.dropLast(8)) == expected)
        #expect(
            bytes.suffix(8).elementsEqual(
                withUnsafeBytes(of: ContentHash.checksum(expected, seed: 1).littleEndian) { Array($0) }))
        #expect(planner.newChunks.map(\.value.first) == [1, 2, 3])
    }

    @Test("the version-2 example of RecordFormat.md is exact: a section summary in an inserted section")
    func documentedVersionTwoExample() throws {
        let snapshot = try LogSnapshot(sections: [.init(title: "A", summary: "s", items: [.init(id: "a")])])
        var planner = ChunkPlanner(nextID: 1)
        let stored = planner.store(snapshot, reusing: .empty)
        #expect(stored.runs.map(\.id) == [3])
        let changes = LogSnapshot().changes(to: snapshot)
        let version = RevisionRecordBody.version(snapshot: snapshot, changes: changes)
        #expect(version == 2)
        let body = RevisionRecordBody(
            version: version, timestamp: 1000, meta: [:], sectionCount: 1, itemCount: 1, sectionRuns: [3],
            changes: changes)
        let bytes = body.encoded(revision: 1)
        let expected: [UInt8] = [
            0x02, 0x00, 0xD0, 0x0F, 0x00, 0x01, 0x01, 0x01, 0x03, 0x00, 0x01, 0x00, 0x01, 0x41, 0x02, 0x73, 0x01, 0x01,
            0x61, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        ]
        #expect(Array(bytes.dropLast(8)) == expected)
        #expect(try bytes.withUnsafeBytes { try RevisionRecordBody(decoding: $0, revision: 1) } == body)
        // The section chunk is kind 4: title, then summary.
        #expect(planner.newChunks.map(\.value.first) == [1, 4, 3])
        #expect(Array(planner.newChunks[1].value.prefix(5)) == [0x04, 0x01, 0x41, 0x01, 0x73])
        // A version-3 record is refused as unsupported, not misread.
        var future = Array(bytes.dropLast(8))
        future[0] = 3
        let sealed = future + withUnsafeBytes(of: ContentHash.checksum(future, seed: 1).littleEndian) { Array($0) }
        #expect(throws: RevisionRecordBody.Failure.unsupportedVersion(3)) {
            try sealed.withUnsafeBytes { try RevisionRecordBody(decoding: $0, revision: 1) }
        }
    }

    @Test("chunks round-trip and check their kind")
    func chunks() throws {
        let samples: [Chunk] = [
            .items([.init(id: "a", summary: "A"), .init(id: "b"), .init(id: "", summary: "")]),
            .section(title: "Section", summary: nil, itemCount: 3, itemChunks: [1, 1 << 40]),
            .section(title: "", summary: nil, itemCount: 0, itemChunks: []),
            .section(title: "Today", summary: "3 unread", itemCount: 3, itemChunks: [1, 1 << 40]),
            .section(title: "", summary: "", itemCount: 0, itemChunks: []),
            .sections([5, 6, 7]),
        ]
        for chunk in samples {
            let sealed = Chunk.sealed(chunk.content, id: 9)
            try sealed.withUnsafeBytes { bytes throws in
                guard case .valid(let content) = SealCheck(bytes, seed: 9) else {
                    Issue.record("checksum failed")
                    return
                }
                #expect(try Chunk(content: content) == chunk)
                guard case .mismatch = SealCheck(bytes, seed: 10) else {
                    Issue.record("a chunk moved to another identifier must fail its checksum")
                    return
                }
            }
        }
        _ = [UInt8]([4, 0]).withUnsafeBytes { bytes in
            #expect(throws: RecordDecodingError.self) { try Chunk(content: bytes) }
        }
        _ = [UInt8]([3, 1, 0]).withUnsafeBytes { bytes in
            #expect(throws: RecordDecodingError.self) { try Chunk(content: bytes) }  // chunk identifier 0
        }
    }

    @Test("chunk cuts depend on content, so a change touches only the chunks around it")
    func contentDefinedChunks() throws {
        let items = (0..<500).map { LogSnapshot.Item(id: "item-\($0)", summary: "summary \($0)") }
        let runs = SnapshotCut.itemRuns(of: items)
        #expect(runs.first?.lowerBound == 0 && runs.last?.upperBound == items.count)
        #expect(zip(runs, runs.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
        #expect(runs.allSatisfy { $0.count <= ChunkingPolicy.maximumItemsPerChunk })
        #expect((90...160).contains(runs.count), "about 4 items per chunk")

        var shifted = items
        shifted.insert(.init(id: "new"), at: 3)
        let before = Set(runs.map { Array(items[$0]) })
        let after = SnapshotCut.itemRuns(of: shifted).map { Array(shifted[$0]) }
        #expect(after.filter { !before.contains($0) }.count <= 2)
    }

    @Test("reusing the previous revision's chunks gives the chunks of cutting every section anew")
    func reusedChunksMatchFreshCuts() throws {
        // A base without item counts makes the planner cut and fingerprint every run of a
        // changed section: the plain algorithm, which the shortcut must reproduce exactly.
        func withoutCounts(_ stored: StoredSnapshot) -> StoredSnapshot {
            var stored = stored
            for index in stored.sections.indices {
                for chunk in stored.sections[index].itemChunks.indices {
                    stored.sections[index].itemChunks[chunk].itemCount = 0
                }
            }
            return stored
        }
        // Large sections with 1% churn, so that sections hold many chunks, then small ones
        // with every kind of edit.
        var generator = SeededGenerator(seed: 11)
        var serial = 0
        func item() -> LogSnapshot.Item {
            serial += 1
            return LogSnapshot.Item(
                id: "item-\(serial)", summary: "\(UInt64.random(in: 0...(.max), using: &generator))")
        }
        var sections = (0..<10).map { LogSnapshot.Section(title: "S\($0)", items: (0..<100).map { _ in item() }) }
        var history: [LogSnapshot] = []
        for round in 0..<100 {
            for _ in 0..<4 {
                let (section, index) = (
                    Int.random(in: 0..<10, using: &generator), Int.random(in: 0..<90, using: &generator)
                )
                sections[section].items[index].summary = "updated \(serial)"
                serial += 1
            }
            for _ in 0..<3 {
                let from = Int.random(in: 0..<10, using: &generator)
                let moved = sections[from].items.remove(at: Int.random(in: 0..<90, using: &generator))
                sections[Int.random(in: 0..<10, using: &generator)].items.insert(
                    moved, at: Int.random(in: 0..<90, using: &generator))
            }
            let target = Int.random(in: 0..<10, using: &generator)
            sections[target].items.insert(item(), at: Int.random(in: 0..<90, using: &generator))
            sections[Int.random(in: 0..<10, using: &generator)].items.remove(
                at: Int.random(in: 0..<90, using: &generator))
            // Edits at a section's ends, where the items it shares with the base end.
            switch round % 4 {
            case 0: sections[Int.random(in: 0..<10, using: &generator)].items.insert(item(), at: 0)
            case 1: sections[Int.random(in: 0..<10, using: &generator)].items.append(item())
            case 2: sections[Int.random(in: 0..<10, using: &generator)].items.removeLast()
            default: sections[Int.random(in: 0..<10, using: &generator)].items.removeFirst()
            }
            history.append(try LogSnapshot(sections: sections))
        }
        history += RandomHistory.snapshots(seed: 7, count: 300)
        var base = StoredSnapshot.empty
        var nextID: UInt64 = 1
        for snapshot in history {
            var fast = ChunkPlanner(nextID: nextID)
            var plain = ChunkPlanner(nextID: nextID)
            let stored = fast.store(snapshot, reusing: base)
            let reference = plain.store(snapshot, reusing: withoutCounts(base))
            #expect(withoutCounts(stored).sections == withoutCounts(reference).sections)
            #expect(stored.runs == reference.runs)
            #expect(fast.newChunks.map(\.id) == plain.newChunks.map(\.id))
            #expect(fast.newChunks.map(\.value) == plain.newChunks.map(\.value))
            base = stored
            nextID = fast.nextID
        }
    }

    /// XXH3 with its public default secret is not collision resistant: for input longer than
    /// 240 bytes, an 8-byte lane half of which equals the secret's adds nothing but itself to
    /// the state, so raising one such lane by 1 and lowering another of the same accumulator by
    /// 1 keeps the hash. Two summaries built that way, valid UTF-8, give item chunks with the
    /// same XXH3-128 fingerprint; the writer must not take one for the other.
    @Test("an item chunk whose fingerprint collides with the previous revision's is stored with its own items")
    func fingerprintCollision() async throws {
        // Lane 0 of stripes 3 and 7 of the chunk's content: a byte the two summaries set to
        // "A"/"B" and "B"/"A", then bytes whose last four are the secret's at that lane.
        func summary(_ first: UInt8, _ second: UInt8) -> String {
            var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: 594)
            // The content starts with 6 bytes: kind, count, "a" and its length, the summary's length.
            let lanes: [(offset: Int, byte: UInt8, rest: [UInt8])] = [
                (192 - 6, first, [0x41, 0x41, 0xE1, 0xB7, 0xB3, 0x67, 0x1F]),
                (448 - 6, second, [0x41, 0x41, 0xC3, 0x81, 0x3A, 0x26, 0x4C]),
            ]
            for lane in lanes {
                bytes[lane.offset] = lane.byte
                bytes.replaceSubrange((lane.offset + 1)...(lane.offset + 7), with: lane.rest)
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        let first = try LogSnapshot(sections: [.init(title: "S", items: [.init(id: "a", summary: summary(65, 66))])])
        let second = try LogSnapshot(sections: [.init(title: "S", items: [.init(id: "a", summary: summary(66, 65))])])
        let contents = [first, second].map { Chunk.items($0.sections[0].items).content }
        #expect(contents[0] != contents[1])
        #expect(ContentHash.fingerprint(contents[0]) == ContentHash.fingerprint(contents[1]))

        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            _ = try await log.append(first)
            let appended = try await log.append(second)
            #expect(appended.changes.counts.itemsUpdated == 1)
            #expect(try log.snapshot(at: 2) == second)
            let report = try await log.verify()
            #expect(report.isValid, "\(report)")
        }
    }

    /// A collision of section or run chunks is hard to build, so the test makes one up: the
    /// base remembers, for its section chunk and its run chunk, the fingerprints of the content
    /// the next snapshot needs. Taken on their word, the writer would store the base's section
    /// (naming the item chunk of the old summary) and the base's run of sections.
    @Test("section and run chunks are reused only when their content is confirmed, never on a fingerprint alone")
    func sectionAndRunReuseIsConfirmed() throws {
        let first = try LogSnapshot(sections: [.init(title: "caf\u{E9}", items: [.init(id: "a", summary: "1")])])
        let second = try LogSnapshot(sections: [.init(title: "caf\u{E9}", items: [.init(id: "a", summary: "2")])])
        var planner = ChunkPlanner(nextID: 1)
        var base = planner.store(first, reusing: .empty)
        // The new item chunk, then the new section chunk naming it, then the new run naming that.
        let newItemChunk = planner.nextID
        let newSection = Chunk.section(
            title: second.sections[0].title, summary: nil, itemCount: 1, itemChunks: [newItemChunk])
        base.sections[0].chunk.fingerprint = ContentHash.fingerprint(newSection.content)
        let newRun = Chunk.sections([newItemChunk + 1])
        base.runs[0].fingerprint = ContentHash.fingerprint(newRun.content)

        var next = ChunkPlanner(nextID: planner.nextID)
        let stored = next.store(second, reusing: base)
        #expect(stored.sections[0].itemChunks.map(\.id) == [newItemChunk])
        #expect(stored.sections[0].chunk.id == newItemChunk + 1)
        #expect(stored.runs.map(\.id) == [newItemChunk + 2])
        #expect(next.newChunks.map { Array($0.value.dropLast(8)) }.suffix(2) == [newSection.content, newRun.content])
    }

    @Test("item chunks read strings in place and write the bytes writeString writes")
    func itemsEncodedInPlace() throws {
        let large = String(repeating: "long summary ", count: 20)
        let items: [LogSnapshot.Item] = [
            .init(id: "small", summary: "tiny"),
            .init(id: "literal identifier longer than fifteen bytes", summary: nil),
            .init(id: "heap-\(large.count)" + large, summary: large),
            .init(id: "é\u{301}ß漢字🙂", summary: ""),
            .init(id: "", summary: String(decoding: Array("bytes".utf8), as: UTF8.self)),
        ]
        var expected = RecordWriter()
        expected.writeByte(Chunk.Kind.items.rawValue)
        expected.writeCount(items.count)
        for item in items {
            expected.writeString(item.id)
            expected.writeOptionalString(item.summary)
        }
        #expect(Chunk.items(items).content == expected.bytes)
        let decoded = try Chunk.items(items).content.withUnsafeBytes { try Chunk(content: $0) }
        #expect(decoded == .items(items))
    }
}
