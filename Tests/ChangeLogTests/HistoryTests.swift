import ChangeLogTestSupport
import Foundation
import ListAdapter
import Testing

@testable import ChangeLog

/// An item's and a section's life read from the log (`ChangeLog.history(of:in:where:)`),
/// checked against seeded histories whose events are written down as they are generated.
@Suite("Histories of items and sections")
struct HistoryTests {
    /// Every identifier and title the seeded histories use, and one never used.
    static let subjects: [HistorySubject] =
        ItemLifeHistory.identifiers.map(HistorySubject.item) + ItemLifeHistory.titles.map(HistorySubject.section)
        + [.item("never"), .section("Never")]

    static func withLog<R>(_ history: ItemLifeHistory, _ body: (ChangeLog) async throws -> R) async throws -> R {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path, options: .init(durability: .noSync))
            _ = try await log.append(contentsOf: history.entries)
            return try await body(log)
        }
    }

    @Test("the history of every item and section is the one written down", arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func knownHistories(seed: UInt64) async throws {
        let history = ItemLifeHistory(seed: seed, count: 150)
        try await Self.withLog(history) { log in
            for subject in Self.subjects {
                let answer = try log.history(of: subject)
                #expect(answer.source == .index)
                #expect(answer.events == history.expected[subject] ?? [], "\(subject)")
            }
        }
    }

    @Test("the seeded histories hold every kind of event the history must answer")
    func seededHistoriesCoverEveryCase() {
        var fates = Set<HistoryEvent.SectionFate>()
        var kinds = Set<[HistoryEvent.Kind]>()
        var returns = false
        var movedWhileLeavingSection = false
        var acrossSections = false
        for seed in 1...6 as ClosedRange<UInt64> {
            for (subject, events) in ItemLifeHistory(seed: seed, count: 150).expected {
                guard case .item = subject else { continue }
                for event in events {
                    if let fate = event.withSection { fates.insert(fate) }
                    kinds.insert(event.kinds)
                    if event.withSection == .deleted, event.after != nil { movedWhileLeavingSection = true }
                    if event.kinds == [.moved, .updated], event.before?.section != event.after?.section {
                        acrossSections = true
                    }
                }
                let insertions = events.filter { $0.kinds == [.inserted] }.count
                if insertions > 1 { returns = true }
            }
        }
        #expect(fates == [.deleted, .inserted])
        #expect(kinds.isSuperset(of: [[.inserted], [.deleted], [.moved], [.updated], [.moved, .updated]]))
        #expect(returns && movedWhileLeavingSection && acrossSections)
    }

    @Test("ranges, times and metadata narrow a history")
    func narrowed() async throws {
        let history = ItemLifeHistory(seed: 3, count: 150)
        try await Self.withLog(history) { log in
            let subject = HistorySubject.item("a b")
            let all = history.expected[subject] ?? []
            #expect(all.count > 4)
            let middle = all[all.count / 2].revision
            #expect(try log.history(of: subject, in: middle...150).events == all.filter { $0.revision >= middle })
            let sync = [MetaFilter(key: "job", comparison: .equals, text: "sync")]
            #expect(try log.history(of: subject, where: sync).events == all.filter { $0.meta["job"] == "sync" })
            let across = [try MetaFilter(parsing: "op~across")]
            #expect(
                try log.history(of: subject, where: across).events == all.filter { $0.meta["op"]!.contains("across") })
            let range = try #require(
                try log.revisions(
                    since: ItemLifeHistory.time(ofStep: 10), until: ItemLifeHistory.time(ofStep: 20) + 59_999))
            #expect(range == 10...20)
            #expect(try log.revision(atMillisecondsSince1970: ItemLifeHistory.time(ofStep: 42) + 1) == 42)
            #expect(try log.revision(atMillisecondsSince1970: ItemLifeHistory.time(ofStep: 1) - 1) == nil)
        }
    }

    @Test("the index and a scan of every revision agree on random histories and ranges", arguments: 0..<14)
    func indexAgreesWithScan(seed: Int) async throws {
        var random = SplitMix64(seed: UInt64(seed) &* 7919)
        // The last seeds are long enough for subjects of several blocks, some events moved to
        // them and the latest still waiting, and retention cutting a block.
        let count = seed >= 12 ? 900 + Int(random.next() % 200) : 40 + Int(random.next() % 120)
        let history = ItemLifeHistory(seed: UInt64(seed) + 100, count: count)
        try await Self.withLog(history) { log in
            let latest = try log.latestRevision
            if random.next() % 2 == 0 {
                _ = try await log.dropRevisions(before: 1 + random.next() % (latest / 2))
            }
            let first = try log.firstRevision
            for subject in Self.subjects {
                let lower = first + 1 + random.next() % (latest - first)
                let upper = lower + random.next() % (latest - lower + 1)
                let range = Swift.max(lower, first + 1)...upper
                let stored = try log.historyIndex.events(of: subject, in: range)
                let indexed = try log.annotated(stored, where: [])
                let scanned = try log.scanEvents(for: subject, in: range, where: [])
                #expect(indexed == scanned, "\(subject) in \(range)")
                #expect(stored.map(\.revision) == scanned.map(\.revision), "\(subject) in \(range)")
            }
        }
    }

    @Test("retention drops the index entries of the revisions it drops")
    func retention() async throws {
        let history = ItemLifeHistory(seed: 5, count: 120)
        try await Self.withLog(history) { log in
            _ = try await log.dropRevisions(before: 60)
            for subject in Self.subjects {
                #expect(try log.historyIndex.events(of: subject, in: 1...59).isEmpty)
                let expected = (history.expected[subject] ?? []).filter { $0.revision > 60 }
                #expect(try log.history(of: subject).events == expected)
            }
        }
    }

    @Test("items ever stored are found by part of their identifier, in identifier order")
    func itemSearch() async throws {
        let history = ItemLifeHistory(seed: 2, count: 150)
        try await Self.withLog(history) { log in
            var expected: [HistoryItem] = []
            for id in ItemLifeHistory.identifiers {
                guard let events = history.expected[.item(id)], let first = events.first, let last = events.last else {
                    continue
                }
                expected.append(HistoryItem(id: id, firstRevision: first.revision, lastRevision: last.revision))
            }
            expected.sort { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
            let everything = try log.items(containing: "")
            let two = try log.items(containing: "", limit: 2)
            let accented = try log.items(containing: "NÉ")
            let slashed = try log.items(containing: "/")
            #expect(everything == expected)
            #expect(two == Array(expected.prefix(2)))
            #expect(accented == expected.filter { $0.id == "né-1" })
            #expect(slashed == expected.filter { $0.id.contains("/") })
        }
    }

    @Test("an identifier too long for an LMDB key has its history all the same")
    func longIdentifier() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path, options: .init(durability: .noSync))
            let long = String(repeating: "é", count: 600)
            _ = try await log.append(try LogSnapshot(sections: [.init(title: "S", items: [.init(id: long)])]))
            _ = try await log.append(try LogSnapshot(sections: [.init(title: "S", items: [])]))
            let events = try log.history(of: .item(long)).events
            #expect(events.map(\.kinds) == [[.inserted], [.deleted]])
        }
    }
}
