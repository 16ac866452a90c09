import ChangeLogTestSupport
import ListAdapter
import Testing

@testable import ChangeLog

/// The compact blocks in which the history index stores events (`HistoryEventCoding`): what goes
/// in comes out, strings byte for byte, and bytes no block holds are refused, not trusted.
@Suite("History index blocks")
struct HistoryEventCodingTests {
    static let texts = ["Pinned", "Later / soon", "e\u{301}", "\u{e9}", "", "a\u{0}b", #"q "uo" \ te"#, "\u{1F600}"]

    /// A random event of an item's (`item`) or a section's history, at `revision`.
    static func event(revision: UInt64, item: Bool, random: inout SplitMix64) -> HistoryEvent {
        func text() -> String { texts[Int(random.next() % UInt64(texts.count))] }
        func summary() -> String? { random.next() % 3 == 0 ? nil : text() }
        func place() -> HistoryEvent.Place? {
            random.next() % 4 == 0
                ? nil
                : HistoryEvent.Place(
                    section: text(), sectionIndex: Int(random.next() % 300),
                    itemIndex: item ? Int(random.next() % 100_000) : nil)
        }
        let kinds = HistoryEvent.Kind.allCases.filter { _ in random.next() % 2 == 0 }
        let fates: [HistoryEvent.SectionFate?] = [nil, .deleted, .inserted]
        var before = place()
        let after = place()
        if before == nil && after == nil {
            before = HistoryEvent.Place(section: text(), sectionIndex: 0, itemIndex: item ? 0 : nil)
        }
        // The next event often takes the title and summary of the one before, as real ones do.
        return HistoryEvent(
            revision: revision, millisecondsSince1970: 0, meta: [:], kinds: kinds.isEmpty ? [.moved] : kinds,
            withSection: item ? fates[Int(random.next() % 3)] : nil, before: before, after: after,
            summaryBefore: summary(), summaryAfter: random.next() % 2 == 0 ? nil : summary())
    }

    @Test("random blocks of events read back exactly, strings as the same Unicode scalars", arguments: 0..<20)
    func roundTrip(seed: UInt64) throws {
        var random = SplitMix64(seed: seed &+ 31)
        let item = seed % 2 == 0
        var revision = 1 + random.next() % 1_000
        let base = revision
        var events: [HistoryEvent] = []
        for _ in 0..<(1 + random.next() % 60) {
            var event = Self.event(revision: revision, item: item, random: &random)
            if let previous = events.last, random.next() % 2 == 0 {
                event.before = previous.after.map {
                    .init(section: $0.section, sectionIndex: $0.sectionIndex + 1, itemIndex: $0.itemIndex)
                }
                event.summaryBefore = previous.summaryAfter
            }
            events.append(event)
            revision += random.next() % 3 == 0 ? 1 : random.next() % 100_000
        }
        let block = HistoryEventCoding.encode(events, base: base)
        let decoded = try block.withUnsafeBytes { bytes in try HistoryEventCoding.decode(bytes, base: base) }
        #expect(decoded == events)
        for (read, written) in zip(decoded, events) {
            let strings = { (event: HistoryEvent) in
                [event.before?.section, event.after?.section, event.summaryBefore, event.summaryAfter].map {
                    $0.map { Array($0.unicodeScalars) }
                }
            }
            #expect(strings(read) == strings(written))
        }
    }

    @Test("a block takes a few bytes per event when titles and summaries repeat")
    func compact() {
        let events = (1...100).map { step in
            HistoryEvent(
                revision: UInt64(step * 90), millisecondsSince1970: 0, meta: [:], kinds: [.moved], withSection: nil,
                before: .init(section: "Section 3", sectionIndex: 3, itemIndex: step % 90),
                after: .init(section: "Section 3", sectionIndex: 3, itemIndex: step % 80), summaryBefore: "v1",
                summaryAfter: "v1")
        }
        let block = HistoryEventCoding.encode(events, base: 90)
        #expect(block.count < 100 * 7 + 16)
    }

    @Test("bytes no block holds are refused or read as some events, never trusted past their end", arguments: 0..<8)
    func damaged(seed: UInt64) {
        var random = SplitMix64(seed: seed &+ 5)
        let events = (0..<20).map { Self.event(revision: 10 + UInt64($0) * 3, item: true, random: &random) }
        var block = HistoryEventCoding.encode(events, base: 10)
        for _ in 0..<40 {
            var damaged = block
            let cut = Int(random.next() % UInt64(damaged.count))
            if random.next() % 2 == 0 {
                damaged.removeSubrange(cut...)
            } else {
                damaged[cut] ^= UInt8(truncatingIfNeeded: random.next() | 1)
            }
            let read = damaged.withUnsafeBytes { bytes in try? HistoryEventCoding.decode(bytes, base: 10) }
            #expect(read != events)
        }
        block.append(0xFF)
        #expect((block.withUnsafeBytes { bytes in try? HistoryEventCoding.decode(bytes, base: 10) }) == nil)
    }
}
