import ListAdapter
import Testing

@testable import ChangeLog

/// The writer's lookup of stored chunks by fingerprint: the same answers whether it scans the
/// list or has indexed it, and a long list looked up many times indexed, so that a large
/// section that changed throughout is cut in linear time (a scan at every lookup would make it
/// quadratic: minutes at 300,000 items).
@Suite("Fingerprint index")
struct FingerprintIndexTests {
    /// Chunks whose fingerprints repeat every `period` chunks.
    private func chunks(_ count: Int, period: Int) -> [StoredChunk] {
        (0..<count).map { StoredChunk(id: UInt64($0 + 1), fingerprint: Fingerprint(high: UInt64($0 % period), low: 7)) }
    }

    @Test(
        "the last matching chunk first, then the earlier ones, as a scan from the end finds them",
        arguments: [5, 16, 17, 400])
    func matchesFromTheEnd(count: Int) {
        let list = chunks(count, period: 4)
        var index = FingerprintIndex()
        // Enough lookups that a long list is indexed partway: answers before and after agree.
        for round in 0..<8 {
            for high: UInt64 in [0, 1, 3] {
                let fingerprint = Fingerprint(high: high, low: 7)
                let expected = list.indices.reversed().filter { list[$0].fingerprint == fingerprint }
                var seen: [Int] = []
                let none: Int? = index.lastMatch(of: fingerprint, in: list) { offset in
                    seen.append(offset)
                    return nil
                }
                #expect(none == nil)
                #expect(seen == expected, "count \(count), round \(round), fingerprint \(high)")
                // The first non-nil answer ends the lookup.
                let second = index.lastMatch(of: fingerprint, in: list) { $0 < expected[0] ? $0 : nil }
                #expect(second == expected.dropFirst().first)
            }
            #expect(index.lastMatch(of: Fingerprint(high: 99, low: 7), in: list) { $0 } == nil)
        }
        #expect(index.isIndexed == (count > FingerprintIndex.shortList))
    }

    @Test("a large section whose every item changed is cut against its base, and reads back")
    func largeSectionChangedThroughout() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            let ids = (0..<5_000).map { "item-\($0)" }
            let first = try LogSnapshot(sections: [.init(title: "a", items: ids.map { .init(id: $0, summary: "1") })])
            // Every item renamed, and every other one kept: new chunks next to stored ones.
            let second = try LogSnapshot(sections: [
                .init(
                    title: "a", items: ids.enumerated().map { .init(id: $0 % 2 == 0 ? $1 : "new-" + $1, summary: "1") })
            ])
            for snapshot in [first, second, first] {
                _ = try await log.append(snapshot)
            }
            #expect(try log.snapshot(at: 2) == second)
            #expect(try log.snapshot(at: 3) == first)
            let report = try await log.verify()
            #expect(report.isValid, "\(report)")
        }
    }
}
